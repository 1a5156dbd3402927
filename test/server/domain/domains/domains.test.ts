import { beforeEach, describe, expect, it } from "vitest";
import { useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
let domainId: string;
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
});

const path = () => ({ params: { path: { domain_id: domainId } } });

describe("GET /api/v1/users/{user_identifier}/domains", () => {
  it("lists the user's domains, newest purchase first, with total", async () => {
    s.clock.advance(60_000);
    const second = await s.registerDomainFor("u1", "adalovelace.io");
    const { data, response } = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } });
    expect(response.status).toBe(200);
    expect(data!.total).toBe(2);
    expect(data!.domains.map((d) => d.id)).toEqual([second, domainId]);
    expect(data!.domains[1]).toEqual({
      id: domainId,
      name: "adalovelace.com",
      status: "active",
      purchased_at: "2026-11-22T10:00:00Z",
      expires_at: "2027-11-22T10:00:00Z",
      auto_renew: true,
      dns_records_count: 0,
      registrar: "Partner Domains Registrar",
      transfer_lock: true,
    });
  });

  it("answers 404 for an unknown user and an empty list for a user without domains", async () => {
    expect(
      (await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "ghost" } } })).response.status,
    ).toBe(404);
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    const { data } = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u2" } } });
    expect(data).toEqual({ domains: [], total: 0, next_cursor: null });
  });
});

describe("GET /api/v1/users/{user_identifier}/domains, paged and filtered", () => {
  const list = (query: Record<string, string | number> = {}) =>
    s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" }, query } });

  /** Seven more domains: two bought at the same moment (ties by name), one expired. */
  async function sevenMore() {
    for (const name of ["b.com", "c.com", "d.com"]) {
      s.clock.advance(60_000);
      await s.registerDomainFor("u1", name);
    }
    await s.registerDomainFor("u1", "a.com");
    for (const name of ["e.com", "f.com", "g.com"]) {
      s.clock.advance(60_000);
      await s.registerDomainFor("u1", name);
    }
    await s.api.PUT("/api/v1/sandbox/domains/{domain_id}/status", {
      params: { path: { domain_id: (await s.services.store.findDomainByName("c.com"))!.id } },
      body: { status: "expired" },
    });
  }

  it("without limit or cursor answers the whole list as before, with next_cursor null", async () => {
    await sevenMore();
    const { data } = await list();
    expect(data!.domains).toHaveLength(8);
    expect(data!.next_cursor).toBeNull();
  });

  it("pages to the end with a small limit: every domain once, in list order, no gap", async () => {
    await sevenMore();
    const whole = (await list()).data!.domains.map((d) => d.name);
    expect(whole).toEqual(["g.com", "f.com", "e.com", "a.com", "d.com", "c.com", "b.com", "adalovelace.com"]);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const { data, response } = await list(cursor ? { limit: 3, cursor } : { limit: 3 });
      expect(response.status).toBe(200);
      expect(data!.total).toBe(8);
      seen.push(...data!.domains.map((d) => d.name));
      cursor = data!.next_cursor;
    } while (cursor);
    expect(seen).toEqual(whole);
  });

  it("filters by status in every page, total counting what it selects", async () => {
    await sevenMore();
    const first = (await list({ status: "active", limit: 5 })).data!;
    expect(first.total).toBe(7);
    const second = (await list({ status: "active", limit: 5, cursor: first.next_cursor! })).data!;
    expect([...first.domains, ...second.domains].map((d) => d.status)).toEqual(Array(7).fill("active"));
    expect(second.next_cursor).toBeNull();
    expect((await list({ status: "expired" })).data!.domains.map((d) => d.name)).toEqual(["c.com"]);
  });

  it("keeps its place when a domain is added while it pages", async () => {
    await sevenMore();
    const first = (await list({ limit: 4 })).data!;
    s.clock.advance(60_000);
    await s.registerDomainFor("u1", "newest.com");
    const rest = (await list({ limit: 10, cursor: first.next_cursor! })).data!;
    expect([...first.domains, ...rest.domains].map((d) => d.name)).not.toContain("newest.com");
    expect(first.domains.length + rest.domains.length).toBe(8);
  });

  it.each([
    ["not base64url", "not.a.cursor"],
    ["another list's", Buffer.from(JSON.stringify(["d1", "someone-else", null, 0, "x.com"])).toString("base64url")],
    ["of another status filter", Buffer.from(JSON.stringify(["d1", "u1", "expired", 0, "x.com"])).toString("base64url")],
  ])("refuses a cursor that is %s with 400 invalid_cursor", async (_what, cursor) => {
    const { response, error } = await list({ cursor });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } });
  });

  // A limit outside 1 to 100: the kit's paging.user-domains-by-cursor.
  it("refuses an unknown status with 400", async () => {
    expect((await list({ status: "gone" })).response.status).toBe(400);
  });
});

describe("GET /api/v1/domains/{domain_id}", () => {
  it("returns the detail shape with records and pricing", async () => {
    await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      ...path(),
      body: { type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 },
    });
    const { data, response } = await s.api.GET("/api/v1/domains/{domain_id}", path());
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      id: domainId,
      name: "adalovelace.com",
      user_identifier: "u1",
      whois_privacy: true,
      nameservers: ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"],
      pricing: { registration_price: "12.99", renewal_price: "14.99", currency: "USD" },
      dns_records: [{ type: "MX", name: "@", content: "mail.adalovelace.com", ttl: 300, priority: 10, created_at: "2026-11-22T10:00:00Z" }],
    });
  });

  it("answers 404 for an unknown domain and 403 for another partner's domain", async () => {
    const unknown = await s.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: "dom_unknown" } } });
    expect(unknown.response.status).toBe(404);
    const other = await s.otherPartner.GET("/api/v1/domains/{domain_id}", path());
    expect(other.response.status).toBe(403);
    expect(other.error).toEqual({ error: "forbidden", message: "You do not have access to this domain" });
  });
});

describe("PUT /api/v1/domains/{domain_id}", () => {
  it("changes auto_renew and whois_privacy and reports updated_at", async () => {
    s.clock.advance(1000);
    const { data, response } = await s.api.PUT("/api/v1/domains/{domain_id}", {
      ...path(),
      body: { auto_renew: false, whois_privacy: false },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: domainId,
      name: "adalovelace.com",
      auto_renew: false,
      whois_privacy: false,
      transfer_lock: true,
      updated_at: "2026-11-22T10:00:01Z",
    });
    expect(s.outbox.events.at(-1)!.type).toBe("domain.updated");
  });

  it("changes only the setting given", async () => {
    const { data } = await s.api.PUT("/api/v1/domains/{domain_id}", { ...path(), body: { whois_privacy: false } });
    expect(data).toMatchObject({ auto_renew: true, whois_privacy: false });
  });

  it.each([
    [{}, 400, "missing_required_field"],
    [{ auto_renew: "yes" }, 400, "invalid_type"],
    [{ auto_renew: true, locked: true }, 400, "unknown_field"],
  ])("refuses %j with %i %s and changes nothing", async (body, status, code) => {
    const { error, response } = await s.api.PUT("/api/v1/domains/{domain_id}", { ...path(), body: body as never });
    expect(response.status).toBe(status);
    expect(error).toMatchObject({ error: "validation_error", details: { code } });
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}", path());
    expect(data).toMatchObject({ auto_renew: true, whois_privacy: true });
  });

  it("answers 403 for another partner's domain without changing it", async () => {
    const { response } = await s.otherPartner.PUT("/api/v1/domains/{domain_id}", { ...path(), body: { auto_renew: false } });
    expect(response.status).toBe(403);
    expect((await s.api.GET("/api/v1/domains/{domain_id}", path())).data).toMatchObject({ auto_renew: true });
  });
});

describe("POST /api/v1/domains/{domain_id}/renew", () => {
  it("extends the expiry by whole years and charges years times the renewal price", async () => {
    const { data, response } = await s.api.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years: 2 } });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: domainId,
      name: "adalovelace.com",
      expires_at: "2029-11-22T10:00:00Z",
      renewal_cost: "29.98",
      currency: "USD",
      renewed_at: "2026-11-22T10:00:00Z",
    });
    const user = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(user.data!.total_spent).toBe("42.97");
    expect(s.outbox.events.at(-1)!.type).toBe("domain.renewed");
  });

  // years 0 and 11, whatever the domain: the kit's renewals.years-outside-one-to-ten-refused.
  it.each([
    [1, 200],
    [9, 200],
    [10, 422],
  ])("answers years=%i for a domain registered one year ahead with %i (at most 10 years ahead)", async (years, status) => {
    const { response } = await s.api.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years } });
    expect(response.status).toBe(status);
  });

  it("accepts 10 years for a domain that has expired, renewing from today", async () => {
    s.clock.advance(400 * 24 * 3_600_000);
    const domain = (await s.services.store.findDomain(domainId))!;
    await s.services.store.saveDomain({ ...domain, status: "expired" });
    const { data, response } = await s.api.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years: 10 } });
    expect(response.status).toBe(200);
    expect(data!.expires_at).toBe("2037-12-27T10:00:00Z");
    expect((await s.services.store.findDomain(domainId))!.status).toBe("active");
  });

  it("refuses a renewal beyond ten years with 422 unprocessable_entity and charges nothing", async () => {
    const { error } = await s.api.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years: 10 } });
    expect(error).toMatchObject({ error: "unprocessable_entity", details: { field: "years", code: "out_of_range" } });
    const user = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(user.data!.total_spent).toBe("12.99");
    expect((await s.api.GET("/api/v1/domains/{domain_id}", path())).data!.expires_at).toBe("2027-11-22T10:00:00Z");
  });

  it.each(["pending", "suspended"] as const)("refuses to renew a %s domain with 409 conflict", async (status) => {
    await s.services.store.saveDomain({ ...(await s.services.store.findDomain(domainId))!, status });
    const { error, response } = await s.api.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years: 1 } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { code: "invalid_status" } });
  });

  it("answers 403 for another partner's domain and 404 for an unknown one", async () => {
    expect((await s.otherPartner.POST("/api/v1/domains/{domain_id}/renew", { ...path(), body: { years: 1 } })).response.status).toBe(403);
    expect(
      (await s.api.POST("/api/v1/domains/{domain_id}/renew", { params: { path: { domain_id: "dom_nope" } }, body: { years: 1 } })).response
        .status,
    ).toBe(404);
  });
});
