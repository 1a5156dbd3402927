/** Calls through the partner client against the reference server: typed results, and every documented error shape narrowed. */
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../server/platform/rate-limits/policy.js";
import {
  createPartnerClient,
  errorMessages,
  hasErrorCode,
  isCodedError,
  isErrorList,
  isRateLimited,
  isValidationError,
  PartnerApiError,
} from "../../client/src/index.js";
import { PARTNER_A_KEY, PARTNER_B_KEY, useTestServer } from "../support/test-server.js";

// Room for these tests, but a user_creation limit small enough to reach.
const s = useTestServer({
  rateLimits: { ...DEFAULT_RATE_LIMITS, classes: { ...DEFAULT_RATE_LIMITS.classes, user_creation: { limit: 3, window: 60 } } },
});
const api = () => createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl });
let domainId: string;

beforeEach(async () => {
  await api().POST("/api/v1/users", { body: { user_identifier: "u1", email: "ada@example.com" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
});

describe("typed calls", () => {
  it("creates a session and reads the user back", async () => {
    const { data, error, response } = await api().POST("/api/v1/users", { body: { user_identifier: "u2" } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data!.login_url).toMatch(/^http:\/\/embed\.test\/session\//);
    const user = await api().GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u2" } } });
    expect(user.data).toMatchObject({ user_identifier: "u2", email: null, domain_count: 0, total_spent: "0.00" });
  });

  it("a Variant D client and a Variant R client speak to the same records", async () => {
    const d = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, variant: "D" });
    const r = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, variant: "R" });
    const created = await d.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "@", content: "203.0.113.1" },
    });
    expect(created.response.status).toBe(201);
    const read = await r.GET("/api/v1/dns_records/{id}", { params: { path: { id: created.data!.id } } });
    expect(read.data).toMatchObject({ id: created.data!.id, domain_id: domainId, value: "203.0.113.1" });
  });

  it("filters a record list by name=@ and name=*, as the client sends them", async () => {
    const d = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, variant: "D" });
    const path = { domain_id: domainId };
    for (const record of [
      { type: "A" as const, name: "@", content: "203.0.113.1" },
      { type: "A" as const, name: "*", content: "203.0.113.2" },
      { type: "A" as const, name: "www", content: "203.0.113.3" },
    ])
      expect((await d.POST("/api/v1/domains/{domain_id}/dns", { params: { path }, body: record })).response.status).toBe(201);
    for (const name of ["@", "*"]) {
      const { data, error, response } = await d.GET("/api/v1/domains/{domain_id}/dns", { params: { path, query: { name } } });
      expect({ name, status: response.status, error }).toEqual({ name, status: 200, error: undefined });
      expect(data!.records.map((record) => record.name)).toEqual([name]);
    }
  });

  it("DELETE with 204 has no data and no error", async () => {
    const { data, error, response } = await api().DELETE("/api/v1/users/{user_identifier}", {
      params: { path: { user_identifier: "u1" } },
    });
    expect([data, error, response.status]).toEqual([undefined, undefined, 204]);
  });
});

describe("error narrowing", () => {
  it("coded not_found", async () => {
    const { data, error, response } = await api().GET("/api/v1/domains/{domain_id}", {
      params: { path: { domain_id: "dom_000000000000000000000000" } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(isCodedError(error)).toBe(true);
    expect(hasErrorCode(error, "not_found")).toBe(true);
    expect(hasErrorCode(error, "forbidden")).toBe(false);
    expect([isErrorList(error), isRateLimited(error), isValidationError(error)]).toEqual([false, false, false]);
    expect(errorMessages(error)).toEqual([expect.any(String)]);
  });

  it("another partner's domain: 403 or 404, never its data", async () => {
    const other = createPartnerClient({ apiKey: PARTNER_B_KEY, baseUrl: s.baseUrl });
    const { data, error, response } = await other.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: domainId } } });
    expect(data).toBeUndefined();
    expect([403, 404]).toContain(response.status);
    expect(isCodedError(error)).toBe(true);
  });

  it("validation_error names the field (Variant D, coded shape)", async () => {
    const { error, response } = await api().POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "@", content: "999.0.113.1" },
    });
    expect(response.status).toBe(422);
    expect(isValidationError(error)).toBe(true);
    if (!isValidationError(error)) return;
    expect(error.details).toMatchObject({ field: "content" });
  });

  it("structure errors are 400 validation_error too", async () => {
    const { error, response } = await api().POST("/api/v1/users", { body: { user_identifier: "u3", nickname: "x" } as never });
    expect(response.status).toBe(400);
    expect(isValidationError(error) && error.details?.code).toBe("unknown_field");
  });

  it("list shape on Variant R's dns_records: 422 and 404", async () => {
    const r = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, variant: "R" });
    const invalid = await r.POST("/api/v1/dns_records", { body: { domain_id: domainId, type: "A", name: "@", value: "999.0.113.1" } });
    expect(invalid.response.status).toBe(422);
    expect(isErrorList(invalid.error)).toBe(true);
    expect(isCodedError(invalid.error)).toBe(false);
    expect(errorMessages(invalid.error)).toEqual([expect.stringContaining("IPv4")]);
    const missing = await r.GET("/api/v1/dns_records/{id}", { params: { path: { id: "rec_000000000000000000000000" } } });
    expect([missing.response.status, isErrorList(missing.error)]).toEqual([404, true]);
  });

  it("conflict", async () => {
    const body = { type: "A" as const, name: "@", content: "203.0.113.1" };
    await api().POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } }, body });
    const { error, response } = await api().POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } }, body });
    expect(response.status).toBe(409);
    expect(hasErrorCode(error, "conflict")).toBe(true);
  });

  it("rate_limit_exceeded with its details, without retries by default", async () => {
    const client = api();
    for (const id of ["a", "b"]) await client.POST("/api/v1/users", { body: { user_identifier: id } });
    const { error, response } = await client.POST("/api/v1/users", { body: { user_identifier: "c" } });
    expect(response.status).toBe(429);
    expect(isRateLimited(error)).toBe(true);
    if (!isRateLimited(error)) return;
    expect(error.details).toEqual({ limit: 3, window: 60, retry_after: 60 });
    expect(response.headers.get("Retry-After")).toBe("60");
  });

  it("the helpers refuse what is not a documented shape", () => {
    for (const value of [undefined, null, "Bad Gateway", 42, {}, { error: 1, message: "x" }, { errors: [1] }]) {
      expect([isCodedError(value), isErrorList(value), isRateLimited(value)]).toEqual([false, false, false]);
    }
    // A 429 body without its details (a proxy's, say) is coded but gives no wait to trust.
    const bare = { error: "rate_limit_exceeded", message: "m" };
    expect([isCodedError(bare), isRateLimited(bare)]).toEqual([true, false]);
    expect(errorMessages("Bad Gateway")).toEqual(["Bad Gateway"]);
    expect(errorMessages(undefined)).toEqual([]);
  });

  it("PartnerApiError carries status, body and request id", () => {
    const response = new Response("{}", { status: 404, headers: { "X-Request-Id": "req_1" } });
    const error = new PartnerApiError(response, { error: "not_found", message: "No such user" });
    expect(error).toMatchObject({
      name: "PartnerApiError",
      status: 404,
      requestId: "req_1",
      message: "Partner API answered 404 not_found: No such user",
    });
    expect(new PartnerApiError(new Response("", { status: 422 }), { errors: ["a", "b"] }).message).toBe("Partner API answered 422: a; b");
  });
});
