/**
 * The contract suite paces itself by the rate limits the target reports: against a server whose
 * limits are small it waits for each window to reset, so it finishes, and it says how long it waited.
 * Waiting advances the test server's clock (the partner's clock, which its windows follow).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../server/platform/rate-limits/policy.js";
import { ContractClient } from "../../conformance/src/contract-client.js";
import { RateLimitPacer } from "../../conformance/src/rate-limit-pacer.js";
import type { Target } from "../../conformance/src/target.js";
import { loadDocument } from "../support/openapi-document.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

// 3 requests a minute overall, 30 an hour.
const s = useTestServer({ rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 0.03) });
const document = loadDocument("full", "sandbox");

function pacedClient(): ContractClient {
  const target: Target = {
    baseUrl: s.baseUrl,
    apiKey: PARTNER_A_KEY,
    secondKey: null,
    revokedKey: null,
    receiverUrl: null,
    receiverPort: 0,
    kind: "full",
    environment: "sandbox",
    stateless: false,
    throughPrismProxy: false,
    document,
  };
  const pacer = new RateLimitPacer({
    now: () => s.clock.now().getTime(),
    sleep: async (milliseconds) => s.clock.advance(milliseconds),
  });
  return new ContractClient(target, pacer);
}

describe("the contract suite against small rate limits", () => {
  it("waits for each window to reset instead of being refused, and sums up the wait", async () => {
    const client = pacedClient();
    const statuses = [];
    for (let call = 0; call < 10; call++) statuses.push((await client.call("getApiHealth")).status);
    expect(statuses).toEqual(Array(10).fill(200));
    // Calls 4, 7 and 10 wait for the minute to end (the server clock starts on a whole minute).
    expect(client.pacer.pauses.map((pause) => pause.milliseconds)).toEqual([60_000, 60_000, 60_000]);
    expect(client.pacer.pauses.every((pause) => /has no requests left/.test(pause.reason))).toBe(true);
    expect(client.pacer.summary()).toBe("rate limits: waited 180.0 s in 3 pauses for the target's windows to reset");
  });

  it("after a 429 from a budget spent elsewhere, waits the Retry-After and gets its answer", async () => {
    for (let call = 0; call < 3; call++) expect((await s.api.GET("/api/v1/health")).response.status).toBe(200);
    const client = pacedClient();
    const result = await client.call("getApiHealth");
    expect(result.status).toBe(200);
    expect(client.pacer.pauses).toEqual([
      { operationId: "getApiHealth", milliseconds: 60_000, reason: "the target answered 429 rate_limit_exceeded" },
    ]);
  });

  it("does not wait while the buckets an operation counts against have room", async () => {
    const client = pacedClient();
    for (let call = 0; call < 3; call++) await client.call("getApiHealth");
    expect(client.pacer.pauses).toEqual([]);
    expect(client.pacer.summary()).toBe("rate limits: no waiting");
  });
});

describe("a target that reports only X-RateLimit-Remaining and X-RateLimit-Reset", () => {
  it("waits until the reset it names (epoch seconds)", async () => {
    const slept: number[] = [];
    const pacer = new RateLimitPacer({ now: () => 0, sleep: async (milliseconds) => void slept.push(milliseconds) });
    const resetInTenSeconds = String(Math.ceil(Date.now() / 1000) + 10);
    pacer.afterResponse("key", "listDomains", new Headers({ "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": resetInTenSeconds }));
    await pacer.beforeCall("key", "getDomain");
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(9_000);
    expect(slept[0]).toBeLessThanOrEqual(11_000);
    // Another key has its own budget.
    await pacer.beforeCall("other key", "getDomain");
    expect(slept).toHaveLength(1);
  });
});
