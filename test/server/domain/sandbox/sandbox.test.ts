/** The sandbox: per-partner clocks, the transfer and domain timelines they drive, magic values, test helpers. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { scaled } from "../../../../scripts/lib/deadlines.js";
import { serveOnLoopback, type Listener } from "../../../support/listen.js";
import createClient from "openapi-fetch";
import type { paths } from "../../../../generated/types/full.js";
import { sandboxMaxAdvanceSeconds } from "../../../../generated/operations.js";
import { createApp } from "../../../../server/assembly/app.js";
import { ManualClock } from "../../../../server/platform/clock.js";
import { createEmbedApp } from "../../../../server/embed/embed-app.js";
import { applyAllDueChanges } from "../../../../server/application/due-changes.js";
import { startDueChangeSweep } from "../../../../server/application/sweep.js";
import { useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
const NOW = "2026-11-22T10:00:00Z";
const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
});

const advance = (body: { seconds?: number; to?: string }) =>
  s.api.POST("/api/v1/sandbox/clock/advance", { body: body as { seconds: number } });
const clockOf = async (client = s.api) => (await client.GET("/api/v1/sandbox/clock")).data!;
const transfer = (domain_name: string, auth_code: string) =>
  s.api.POST("/api/v1/domains/transfer", { body: { domain_name, user_identifier: "u1", auth_code } });
const getTransfer = async (transfer_id: string) =>
  (await s.api.GET("/api/v1/domains/transfers/{transfer_id}", { params: { path: { transfer_id } } })).data!;
const register = (body: { domain_name: string; user_identifier?: string; years?: number; auto_renew?: boolean }) =>
  s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", ...body } });
const getDomain = async (domain_id: string) =>
  (await s.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id } } }))
    .data! as paths["/api/v1/domains/{domain_id}"]["get"]["responses"]["200"]["content"]["application/json"] & {
    status: string;
    expires_at: string;
    auto_renew: boolean;
  };
const totalSpent = async () =>
  (await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!.total_spent;
const setStatus = (domain_id: string, status: "active" | "pending" | "expired" | "suspended") =>
  s.api.PUT("/api/v1/sandbox/domains/{domain_id}/status", { params: { path: { domain_id } }, body: { status } });
const eventsOf = (type: string) => s.outbox.events.filter((event) => event.type === type);

describe("the sandbox clock", () => {
  it("starts at the deployment's time, and advancing moves only the calling partner's clock", async () => {
    expect(await clockOf()).toEqual({ now: NOW, advanced_seconds: 0 });
    const { data, response } = await advance({ seconds: 90 * 60 });
    expect(response.status).toBe(200);
    expect(data).toEqual({ now: "2026-11-22T11:30:00Z", advanced_seconds: 5400, changes: [] });
    expect(await clockOf()).toEqual({ now: "2026-11-22T11:30:00Z", advanced_seconds: 5400 });
    expect(await clockOf(s.otherPartner)).toEqual({ now: NOW, advanced_seconds: 0 });
  });

  it("advances to a timestamp, and what the partner creates afterwards carries its time", async () => {
    expect((await advance({ to: "2027-01-01T00:00:00Z" })).data).toMatchObject({ now: "2027-01-01T00:00:00Z" });
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    expect((data as { expires_at: string }).expires_at).toBe("2027-01-02T00:00:00Z");
  });

  // seconds 0 or past the maximum, both fields or neither: the kit's sandbox.clock-never-moves-back and sandbox.clock-advance-is-bounded.
  it.each([
    [{ to: NOW }, 422, "to", "invalid_value"],
    [{ to: "2026-11-21T10:00:00Z" }, 422, "to", "invalid_value"],
    [{ to: "2036-11-22T10:00:01Z" }, 422, "to", "out_of_range"],
    [{ seconds: "60" }, 400, "seconds", "invalid_type"],
  ])("refuses %j with %i and moves nothing", async (body, status, field, code) => {
    const { error, response } = await advance(body as unknown as { seconds: number });
    expect(response.status).toBe(status);
    expect(error).toMatchObject({ error: "validation_error" });
    if (field) expect(error).toMatchObject({ details: { field, code } });
    expect(await clockOf()).toEqual({ now: NOW, advanced_seconds: 0 });
  });

  // Found by test/server/properties.test.ts: these passed the validator and then broke the partner's clock (500, then every request).
  it.each([
    ["2027-06-30T23:59:60Z", "2027-07-01T00:00:00Z"],
    ["2027-01-01t10:00:00z", "2027-01-01T10:00:00Z"],
    ["2027-01-01T10:00:00+01", "2027-01-01T09:00:00Z"],
    ["2027-01-01T10:00:00-0130", "2027-01-01T11:30:00Z"],
    ["2027-01-01T10:00:00.999999Z", "2027-01-01T10:00:00Z"],
  ])("reads every RFC 3339 spelling the validator accepts: %s is %s", async (to, now) => {
    const { data, response } = await advance({ to });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ now });
    expect((await clockOf()).now).toBe(now);
  });

  it("refuses a leap second in the past like any past time, and the clock still works", async () => {
    const { error, response } = await advance({ to: "1969-01-01T23:59:60Z" });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field: "to", code: "invalid_value" } });
    expect(await clockOf()).toEqual({ now: NOW, advanced_seconds: 0 });
  });

  it("accepts the edges: one second, and exactly the maximum", async () => {
    expect((await advance({ seconds: 1 })).response.status).toBe(200);
    expect((await advance({ to: "2036-11-21T22:00:01Z" })).data).toMatchObject({ now: "2036-11-21T22:00:01Z" });
  });

  describe("how far one call moves it: the schema's maximum of seconds (ten years of 365.25 days), for seconds and to alike", () => {
    it("is 315,576,000 seconds", () => {
      expect(sandboxMaxAdvanceSeconds).toBe(10 * 365.25 * DAY_S);
    });

    it("accepts seconds at the maximum from any date, also where ten calendar years hold only two leap days", async () => {
      expect((await advance({ to: "2029-03-01T00:00:00Z" })).response.status).toBe(200);
      const { data, response } = await advance({ seconds: sandboxMaxAdvanceSeconds });
      expect(response.status).toBe(200);
      // Ten calendar years from there end at 2039-03-01T00:00:00Z: the bound is half a day longer.
      expect(data).toMatchObject({ now: "2039-03-01T12:00:00Z" });
    });

    it("refuses a to one second beyond the maximum, although ten calendar years ahead reach further, and accepts one at the maximum", async () => {
      // From 2026-11-22 ten calendar years hold three leap days: 3653 days, half a day beyond the bound.
      const refused = await advance({ to: "2036-11-21T22:00:01Z" });
      expect(refused.response.status).toBe(422);
      expect(refused.error).toMatchObject({ error: "validation_error", details: { field: "to", code: "out_of_range" } });
      expect(await clockOf()).toEqual({ now: NOW, advanced_seconds: 0 });
      const { data, response } = await advance({ to: "2036-11-21T22:00:00Z" });
      expect(response.status).toBe(200);
      expect(data).toMatchObject({ now: "2036-11-21T22:00:00Z", advanced_seconds: sandboxMaxAdvanceSeconds });
    });
  });

  it("moves no rate-limit window: limits run on the real clock, and the helpers themselves are never limited", async () => {
    for (let i = 0; i < 99; i++) await s.api.GET("/api/v1/health");
    expect((await s.api.GET("/api/v1/health")).response.status).toBe(429);
    const advanced = await advance({ seconds: 2 * 3600 });
    expect(advanced.response.status).toBe(200);
    const refused = await s.api.GET("/api/v1/health");
    expect(refused.response.status).toBe(429);
    // The window's end on the real clock, whatever the partner's clock says.
    expect(refused.response.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2026-11-22T10:01:00Z") / 1000));
    s.clock.advance(60_000);
    expect((await s.api.GET("/api/v1/health")).response.status).toBe(200);
  });

  it("cannot be used to exceed the published limits: advancing and resetting in a loop frees no request", async () => {
    let served = 0;
    for (let round = 0; round < 3; round++) {
      while ((await s.api.GET("/api/v1/health")).response.status === 200) served++;
      expect((await advance({ seconds: 3600 })).response.status).toBe(200);
      expect((await s.api.POST("/api/v1/sandbox/reset")).response.status).toBe(204);
    }
    // One real minute: at most the overall burst of 100, the helpers counted in none.
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(100);
  });

  it("helpers count against no bucket but report the overall ones", async () => {
    for (let i = 0; i < 5; i++) await clockOf();
    const { response } = await s.api.GET("/api/v1/sandbox/clock");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("99");
  });
});

describe("transfers on the sandbox clock", () => {
  it("the usual path: in_progress after an hour, completed at estimated_completion, each step timestamped", async () => {
    const { data: started } = await transfer("turing.com", "Xk8#pL2q!Rm9");
    const id = started!.transfer_id;
    expect((await advance({ seconds: HOUR_S - 1 })).data!.changes).toEqual([]);
    expect((await getTransfer(id)).status).toBe("pending");
    expect((await advance({ seconds: 1 })).data!.changes).toEqual([
      { object: "transfer", id, from: "pending", to: "in_progress", at: "2026-11-22T11:00:00Z" },
    ]);
    await advance({ to: "2026-11-29T09:59:59Z" });
    expect((await getTransfer(id)).status).toBe("in_progress");
    const { data } = await advance({ seconds: 1 });
    expect(data!.changes).toEqual([{ object: "transfer", id, from: "in_progress", to: "completed", at: started!.estimated_completion }]);
    const completed = await getTransfer(id);
    expect(completed).toMatchObject({
      status: "completed",
      completed_at: "2026-11-29T10:00:00Z",
      domain_id: expect.stringMatching(/^dom_/),
    });
    expect(completed.history).toEqual([
      { status: "pending", at: NOW },
      { status: "in_progress", at: "2026-11-22T11:00:00Z" },
      { status: "completed", at: "2026-11-29T10:00:00Z" },
    ]);
    expect(await getDomain(completed.domain_id!)).toMatchObject({
      name: "turing.com",
      status: "active",
      purchased_at: "2026-11-29T10:00:00Z",
    });
    expect(await totalSpent()).toBe("12.99");
  });

  it("one long advance carries out every step in time order, events stamped with their due time", async () => {
    const id = (await transfer("turing.com", "Xk8#pL2q!Rm9")).data!.transfer_id;
    const { data } = await advance({ seconds: 30 * DAY_S });
    expect(data!.changes.map((change) => [change.to, change.at])).toEqual([
      ["in_progress", "2026-11-22T11:00:00Z"],
      ["completed", "2026-11-29T10:00:00Z"],
    ]);
    expect(eventsOf("transfer.status_changed").map((event) => event.createdAt.toISOString())).toEqual([
      "2026-11-22T11:00:00.000Z",
      "2026-11-29T10:00:00.000Z",
    ]);
    expect(eventsOf("domain.registered")).toHaveLength(1);
    expect((await getTransfer(id)).status).toBe("completed");
  });

  it.each([
    ["sandbox-fail", ["in_progress", "failed"], "2026-11-23T10:00:00Z"],
    ["sandbox-cancel", ["cancelled"], "2026-11-22T11:00:00Z"],
    ["sandbox-cancel-in-progress", ["in_progress", "cancelled"], "2026-11-24T10:00:00Z"],
  ])("auth code %s leads to %j, ending at %s, and leaves nothing behind", async (code, statuses, endedAt) => {
    const id = (await transfer("turing.com", code)).data!.transfer_id;
    const { data } = await advance({ seconds: 30 * DAY_S });
    expect(data!.changes.map((change) => change.to)).toEqual(statuses);
    expect(await getTransfer(id)).toMatchObject({ status: statuses.at(-1), completed_at: endedAt, domain_id: null });
    expect((await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })).data!.total).toBe(
      0,
    );
    expect(await totalSpent()).toBe("0.00");
    expect(
      (await s.api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name: "turing.com" } } })).data!.available,
    ).toBe(true);
  });

  // Found by test/server/properties.test.ts: MAGIC_AUTH_CODES["__proto__"] is Object.prototype, and the next advance answered 500.
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "an auth code named like a property of every object (%s) takes the usual path",
    async (code) => {
      const id = (await transfer("turing.com", code)).data!.transfer_id;
      expect((await advance({ seconds: 8 * DAY_S })).response.status).toBe(200);
      expect((await getTransfer(id)).status).toBe("completed");
    },
  );

  it("magic codes are exact: another code takes the usual path", async () => {
    const id = (await transfer("turing.com", "SANDBOX-FAIL")).data!.transfer_id;
    await advance({ seconds: 8 * DAY_S });
    expect((await getTransfer(id)).status).toBe("completed");
  });
});

describe("domains on the sandbox clock", () => {
  it("a domain without auto_renew expires when expires_at passes, and renewing makes it active from today", async () => {
    const id = (await register({ domain_name: "lapsed.com", auto_renew: false })).data!.id;
    await advance({ to: "2027-11-22T09:59:59Z" });
    expect((await getDomain(id)).status).toBe("active");
    const { data } = await advance({ seconds: 1 });
    expect(data!.changes).toEqual([{ object: "domain", id, from: "active", to: "expired", at: "2027-11-22T10:00:00Z" }]);
    expect((await getDomain(id)).status).toBe("expired");
    expect(eventsOf("domain.expired").map((event) => event.createdAt.toISOString())).toEqual(["2027-11-22T10:00:00.000Z"]);

    await advance({ seconds: 30 * DAY_S });
    const renewal = await s.api.POST("/api/v1/domains/{domain_id}/renew", { params: { path: { domain_id: id } }, body: { years: 1 } });
    expect(renewal.response.status).toBe(200);
    expect(await getDomain(id)).toMatchObject({ status: "active", expires_at: "2028-12-22T10:00:00Z" });
  });

  it("a domain with auto_renew is renewed for a year each time it falls due, and the user is charged each time", async () => {
    const id = (await register({ domain_name: "kept.com" })).data!.id;
    expect(await totalSpent()).toBe("12.99");
    const { data } = await advance({ to: "2030-01-01T00:00:00Z" });
    expect(data!.changes).toEqual(
      ["2027-11-22T10:00:00Z", "2028-11-22T10:00:00Z", "2029-11-22T10:00:00Z"].map((at) => ({
        object: "domain",
        id,
        from: "active",
        to: "active",
        at,
      })),
    );
    expect(await getDomain(id)).toMatchObject({ status: "active", expires_at: "2030-11-22T10:00:00Z" });
    expect(await totalSpent()).toBe(String((1299 + 3 * 1499) / 100));
    expect(eventsOf("domain.renewed")).toHaveLength(3);
  });

  it("a transferred domain, on the same advance, later renews itself too", async () => {
    await transfer("turing.com", "Xk8#pL2q!Rm9");
    const { data } = await advance({ seconds: 380 * DAY_S });
    expect(data!.changes.map((change) => `${change.object}:${change.to}`)).toEqual([
      "transfer:in_progress",
      "transfer:completed",
      "domain:active",
    ]);
  });
});

describe("sessions on the sandbox clock", () => {
  let embed: Listener;
  let embedUrl: string;
  beforeAll(async () => {
    embed = await serveOnLoopback(createEmbedApp(s.services));
    embedUrl = embed.url;
  });
  afterAll(() => embed.close());

  /** Opens a login_url as a browser does: the token exchange sets a cookie and redirects to the domains page. */
  const openLoginUrl = async (loginUrl: string) => {
    const exchange = await fetch(loginUrl.replace("http://embed.test", embedUrl), { redirect: "manual" });
    if (exchange.status !== 303) return exchange;
    const cookie = exchange.headers.get("set-cookie")!.split(";")[0]!;
    return fetch(new URL(exchange.headers.get("location")!, embedUrl), { headers: { cookie } });
  };

  it("login_url opens the embedded interface until 24 hours have passed on the partner's clock, then 410", async () => {
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const loginUrl = data!.login_url;
    expect((await openLoginUrl(loginUrl)).status).toBe(200);
    await advance({ seconds: DAY_S - 1 });
    const stillOpen = await openLoginUrl(loginUrl);
    expect(stillOpen.status).toBe(200);
    expect(await stillOpen.text()).toContain("Signed in as <strong>u1</strong>");
    await advance({ seconds: 1 });
    const expired = await openLoginUrl(loginUrl);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This session has expired");
  });

  it("another partner's clock does not end the session", async () => {
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    await s.otherPartner.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 2 * DAY_S } });
    expect((await openLoginUrl(data!.login_url)).status).toBe(200);
  });

  it("an unknown or malformed token is 404", async () => {
    expect((await fetch(`${embedUrl}/session/${"a".repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${embedUrl}/session/%00..%2F`)).status).toBe(404);
  });
});

describe("magic names", () => {
  const availability = async (domain_name: string) =>
    (await s.api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name } } })).data!;

  it.each([
    ["taken-shop.com", { available: false, premium: false, price: null }],
    ["reserved-shop.com", { available: false, premium: false, price: null }],
    ["whois.com", { available: false, premium: false, price: null }],
    ["premium-shop.com", { available: true, premium: true, price: "324.75" }],
    ["abc.com", { available: true, premium: true, price: "324.75" }],
    ["abcd.com", { available: true, premium: false, price: "12.99" }],
  ])("%s answers %j, the same every time", async (name, expected) => {
    expect(await availability(name)).toMatchObject(expected);
    expect(await availability(name)).toMatchObject(expected);
  });

  it("a taken name can be transferred in, though not registered", async () => {
    expect((await transfer("taken-shop.com", "Xk8#pL2q!Rm9")).response.status).toBe(201);
    expect((await register({ domain_name: "taken-shop.net" })).response.status).toBe(409);
  });
});

describe("POST /api/v1/sandbox/domains", () => {
  it("registers a domain as a purchase would: 201 with the detail, charged, domain.registered", async () => {
    const { data, response } = await register({ domain_name: "Ada-Lovelace.COM", years: 2 });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      name: "ada-lovelace.com",
      status: "active",
      purchased_at: NOW,
      expires_at: "2028-11-22T10:00:00Z",
      auto_renew: true,
      whois_privacy: true,
      user_identifier: "u1",
    });
    expect(await totalSpent()).toBe("25.98");
    expect(eventsOf("domain.registered")).toEqual([expect.objectContaining({ partnerId: "partner_a", payload: { data } })]);
    expect((await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })).data!.total).toBe(
      1,
    );
  });

  it("charges the premium price for premium names", async () => {
    await register({ domain_name: "premium-shop.com" });
    expect(await totalSpent()).toBe("324.75");
  });

  it.each([
    [{ domain_name: "taken-x.com" }, 409, "not_available"],
    [{ domain_name: "reserved-x.com" }, 409, "not_available"],
    [{ domain_name: "nic.io" }, 409, "not_available"],
    [{ domain_name: "ada.ai" }, 422, "invalid_value"],
    [{ domain_name: "not a name" }, 422, "invalid_format"],
    [{ domain_name: "ada.com", years: 11 }, 422, "out_of_range"],
    [{ domain_name: "ada.com", years: 0 }, 422, "out_of_range"],
    [{ domain_name: "ada.com", user_identifier: "nobody" }, 404, undefined],
  ])("refuses %j with %i and changes nothing", async (body, status, code) => {
    const { error, response } = await register(body);
    expect(response.status).toBe(status);
    if (code) expect(error).toMatchObject({ details: { code } });
    expect(await totalSpent()).toBe("0.00");
    expect(eventsOf("domain.registered")).toEqual([]);
  });

  it.each([["😀.com"], ["xn--e28h.com"], ["☃.com"], ["xn--n3h.com"]])(
    "refuses %j, a name IDNA2008 does not allow, with 422 and registers nothing",
    async (domain_name) => {
      const { error, response } = await register({ domain_name });
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ details: { field: "domain_name", code: "invalid_format" } });
      expect(await totalSpent()).toBe("0.00");
      expect(eventsOf("domain.registered")).toEqual([]);
    },
  );

  it("registers a Unicode name once, whichever spelling comes second", async () => {
    expect((await register({ domain_name: "münchen.de" })).data).toMatchObject({ name: "xn--mnchen-3ya.de" });
    const { error, response } = await register({ domain_name: "XN--MNCHEN-3YA.DE" });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { code: "not_available" } });
  });

  it("refuses a name already registered through the service with 409", async () => {
    await register({ domain_name: "ada.com" });
    const { error, response } = await register({ domain_name: "ada.com" });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { field: "domain_name", code: "not_available" } });
  });
});

describe("PUT /api/v1/sandbox/domains/{domain_id}/status", () => {
  it("suspends a domain: renewal is then refused with 409; domain.updated is sent", async () => {
    const id = (await register({ domain_name: "ada.com" })).data!.id;
    expect((await setStatus(id, "suspended")).data).toMatchObject({ status: "suspended" });
    expect(eventsOf("domain.updated")).toHaveLength(1);
    const renewal = await s.api.POST("/api/v1/domains/{domain_id}/renew", { params: { path: { domain_id: id } }, body: { years: 1 } });
    expect(renewal.response.status).toBe(409);
  });

  it("expires a domain now (domain.expired), and activating it again gives a year from now", async () => {
    const id = (await register({ domain_name: "ada.com", years: 3 })).data!.id;
    await advance({ seconds: DAY_S });
    expect((await setStatus(id, "expired")).data).toMatchObject({ status: "expired", expires_at: "2026-11-23T10:00:00Z" });
    expect(eventsOf("domain.expired")).toHaveLength(1);
    expect((await setStatus(id, "active")).data).toMatchObject({ status: "active", expires_at: "2027-11-23T10:00:00Z" });
  });

  it("setting the status a domain has changes nothing and sends nothing", async () => {
    const id = (await register({ domain_name: "ada.com" })).data!.id;
    expect((await setStatus(id, "active")).response.status).toBe(200);
    expect(eventsOf("domain.updated")).toEqual([]);
  });

  it("answers 403 for another partner's domain, 404 for an unknown one, 422 for an unknown status", async () => {
    const id = (await register({ domain_name: "ada.com" })).data!.id;
    expect(
      (
        await s.otherPartner.PUT("/api/v1/sandbox/domains/{domain_id}/status", {
          params: { path: { domain_id: id } },
          body: { status: "expired" },
        })
      ).response.status,
    ).toBe(403);
    expect((await setStatus("dom_unknown", "expired")).response.status).toBe(404);
    expect((await setStatus(id, "deleted" as "active")).response.status).toBe(422);
    expect((await getDomain(id)).status).toBe("active");
  });
});

describe("POST /api/v1/sandbox/reset", () => {
  it("deletes the partner's data and sets its clock back, keeping its rate-limit counters; other partners keep theirs", async () => {
    await register({ domain_name: "ada.com" });
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
    await advance({ seconds: DAY_S });
    for (let i = 0; i < 49; i++) await s.api.GET("/api/v1/health");
    const remainingBefore = Number((await s.api.GET("/api/v1/health")).response.headers.get("x-ratelimit-remaining"));

    const { response } = await s.api.POST("/api/v1/sandbox/reset");
    expect(response.status).toBe(204);
    expect((await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).response.status).toBe(404);
    expect(
      (await s.api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name: "ada.com" } } })).data!.available,
    ).toBe(true);
    expect(await clockOf()).toEqual({ now: NOW, advanced_seconds: 0 });
    // Counted on across the reset (an exempt reset that cleared them would free a window per reset): the two reads above and this one.
    expect((await s.api.GET("/api/v1/health")).response.headers.get("x-ratelimit-remaining")).toBe(String(remainingBefore - 3));
    expect(
      (await s.otherPartner.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "b1" } } })).response.status,
    ).toBe(200);
  });
});

describe("a production deployment", () => {
  const LIVE_KEY = "sk_live_partnerAkey00000000000000000000000";
  const clock = new ManualClock(NOW);
  const production = createApp({
    environment: "production",
    embedBaseUrl: "https://embed.invalid",
    clock,
    partners: [{ partner: { id: "p", name: "P" }, keys: [LIVE_KEY] }],
  });
  let server: Listener;
  let api: ReturnType<typeof createClient<paths>>;
  beforeAll(async () => {
    server = await serveOnLoopback(production.app);
    api = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${LIVE_KEY}` } });
  });
  afterAll(() => server.close());

  it.each([
    ["GET", "/api/v1/sandbox/clock", undefined],
    ["POST", "/api/v1/sandbox/clock/advance", { seconds: 60 }],
    ["POST", "/api/v1/sandbox/domains", { user_identifier: "u1", domain_name: "ada.com" }],
    ["PUT", "/api/v1/sandbox/domains/dom_x/status", { status: "expired" }],
    ["POST", "/api/v1/sandbox/reset", undefined],
  ])("has no %s %s: 404 not_found", async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${LIVE_KEY}`, "Content-Type": "application/json" },
      body: body && JSON.stringify(body),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "not_found" });
  });

  it("ignores magic values: sandbox-fail completes, taken- names are available; time moves transfers on the sweep", async () => {
    await api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    expect(
      (await api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name: "taken-shop.com" } } })).data!
        .available,
    ).toBe(true);
    const id = (
      await api.POST("/api/v1/domains/transfer", { body: { domain_name: "turing.com", user_identifier: "u1", auth_code: "sandbox-fail" } })
    ).data!.transfer_id;
    clock.advance(8 * DAY_S * 1000);
    expect(await applyAllDueChanges(production.services)).toBe(2);
    expect((await api.GET("/api/v1/domains/transfers/{transfer_id}", { params: { path: { transfer_id: id } } })).data!.status).toBe(
      "completed",
    );
  });
});

describe("the periodic sweep", () => {
  it("applies what falls due as time passes on its own, without any request", async () => {
    const id = (await transfer("turing.com", "Xk8#pL2q!Rm9")).data!.transfer_id;
    s.clock.advance(2 * 3600_000);
    const errors: unknown[] = [];
    const stop = startDueChangeSweep(s.services, (error) => errors.push(error), 5);
    try {
      await vi.waitFor(async () => expect((await getTransfer(id)).status).toBe("in_progress"), { timeout: scaled(2_000), interval: 10 });
    } finally {
      stop();
    }
    expect(errors).toEqual([]);
  });
});
