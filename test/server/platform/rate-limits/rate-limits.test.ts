/** Rate limits over HTTP: headers on every authenticated answer, 429 with details, refused means not executed. */
import { describe, expect, it } from "vitest";
import { scaled } from "../../../../scripts/lib/deadlines.js";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

const MINUTE_END = Date.parse("2026-11-22T10:01:00Z") / 1000;
const HOUR_END = Date.parse("2026-11-22T11:00:00Z") / 1000;

const send = (path: string, init: RequestInit = {}, key = PARTNER_A_KEY) =>
  fetch(`${s.baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers },
  });
const rateHeaders = (response: Response) => ({
  limit: response.headers.get("x-ratelimit-limit"),
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: response.headers.get("x-ratelimit-reset"),
});
const transfer = (domain_name: string) =>
  send("/api/v1/domains/transfer", {
    method: "POST",
    body: JSON.stringify({ domain_name, user_identifier: "u1", auth_code: "Xk8#pL2q!Rm9" }),
  });
async function sendTimes(times: number, path: string) {
  for (let i = 0; i < times; i++) expect((await send(path)).status).not.toBe(429);
}

describe("rate-limit headers", () => {
  it("a success reports the bucket closest to exhaustion: the overall minute", async () => {
    const response = await send("/api/v1/domains/tlds");
    expect(response.status).toBe(200);
    expect(rateHeaders(response)).toEqual({ limit: "100", remaining: "99", reset: String(MINUTE_END) });
    expect(response.headers.get("ratelimit-policy")).toBe(
      '"overall_3600s";q=1000;w=3600, "overall_60s";q=100;w=60, "domain_retrieval";q=1000;w=60',
    );
    expect(response.headers.get("ratelimit")).toBe('"overall_60s";r=99;t=60');
  });

  it("a class smaller than the overall minute is the one reported", async () => {
    const response = await send("/api/v1/users/nobody", { method: "DELETE" });
    expect(rateHeaders(response)).toEqual({ limit: "30", remaining: "29", reset: String(MINUTE_END) });
  });

  it.each([
    ["404 not_found", "/api/v1/users/nobody", {}, 404],
    ["400 validation_error", "/api/v1/users?limit=0", {}, 400],
    ["415 unsupported_media_type", "/api/v1/users", { method: "POST", body: "x", headers: { "Content-Type": "text/plain" } }, 415],
    ["405 method_not_allowed", "/api/v1/domains/tlds", { method: "DELETE" }, 405],
    ["404 for a path the API does not have", "/api/v1/nothing-here", {}, 404],
  ] as const)("errors carry them too: %s", async (_name, path, init, status) => {
    const response = await send(path, init as RequestInit);
    expect(response.status).toBe(status);
    expect(rateHeaders(response)).toEqual({ limit: "100", remaining: "99", reset: String(MINUTE_END) });
  });

  it("a request without a valid key has no limits to report (401)", async () => {
    const response = await send("/api/v1/domains/tlds", {}, "sk_sandbox_unknown");
    expect(response.status).toBe(401);
    expect(rateHeaders(response)).toEqual({ limit: null, remaining: null, reset: null });
  });

  it("the open GET /health counts against nothing", async () => {
    const response = await fetch(`${s.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("429 rate_limit_exceeded", () => {
  it("the 101st request of a minute is refused with details and Retry-After, the next minute is open again", async () => {
    await sendTimes(100, "/api/v1/health");
    s.clock.advance(45_000);
    const refused = await send("/api/v1/health");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("15");
    expect(rateHeaders(refused)).toEqual({ limit: "100", remaining: "0", reset: String(MINUTE_END) });
    expect(await refused.json()).toEqual({
      error: "rate_limit_exceeded",
      message: "Rate limit of 100 requests per 60 seconds exceeded",
      details: { limit: 100, window: 60, retry_after: 15 },
    });
    s.clock.advance(14_999);
    expect((await send("/api/v1/health")).status).toBe(429);
    s.clock.advance(1);
    const open = await send("/api/v1/health");
    expect(open.status).toBe(200);
    expect(rateHeaders(open)).toEqual({ limit: "100", remaining: "99", reset: String(MINUTE_END + 60) });
  });

  it(
    "the hour allows 1000: the 1001st waits until the hour ends",
    async () => {
      for (let minute = 0; minute < 10; minute++) {
        await sendTimes(100, "/api/v1/health");
        s.clock.advance(60_000);
      }
      const refused = await send("/api/v1/health");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(50 * 60));
      expect(rateHeaders(refused)).toEqual({ limit: "1000", remaining: "0", reset: String(HOUR_END) });
      expect((await refused.json()).details).toEqual({ limit: 1000, window: 3600, retry_after: 3000 });
    },
    scaled(60_000),
  );

  it("a refused request is not executed and counts against no other bucket", async () => {
    expect((await send("/api/v1/users", { method: "POST", body: JSON.stringify({ user_identifier: "u1" }) })).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await transfer(`name${i}.com`)).status).toBe(201);
    const refused = await transfer("refused.com");
    expect(refused.status).toBe(429);
    expect((await refused.json()).details).toEqual({ limit: 10, window: 60, retry_after: 60 });
    expect(await s.services.store.activeTransferOf("name9.com")).toBeDefined();
    expect(await s.services.store.activeTransferOf("refused.com")).toBeUndefined();
    // 1 user creation + 10 transfers counted; the refused one did not.
    const next = await send("/api/v1/domains/tlds");
    expect(rateHeaders(next).remaining).toBe(String(100 - 12));
  });

  it("limits are per partner: partner A's exhausted minute leaves partner B's whole", async () => {
    await sendTimes(100, "/api/v1/health");
    expect((await send("/api/v1/health")).status).toBe(429);
    const other = await s.otherPartner.GET("/api/v1/health");
    expect(other.response.status).toBe(200);
    expect(other.response.headers.get("x-ratelimit-remaining")).toBe("99");
  });

  it("a second key of the same partner shares the counters", async () => {
    const secondKey = "sk_sandbox_partnerAsecondkey0000000000000";
    s.keys.addKey({ id: "partner_a", name: "Partner A" }, secondKey);
    await sendTimes(100, "/api/v1/health");
    expect((await send("/api/v1/health", {}, secondKey)).status).toBe(429);
  });
});
