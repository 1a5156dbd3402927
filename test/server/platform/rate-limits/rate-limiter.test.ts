/** The limiter on its own, for every bucket of the table at the edges of its window; how long its counters live. */
import { describe, expect, it } from "vitest";
import { operationTable, rateLimits, type OperationId } from "../../../../generated/operations.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits, type RateLimitTable } from "../../../../server/platform/rate-limits/policy.js";
import { RateLimiter } from "../../../../server/platform/rate-limits/rate-limiter.js";
import { DEFAULT_ACCOUNT_LIMITS } from "../../../../server/partners/accounts/account-limits.js";
import { COUNTER_LIFETIME_MS } from "../../../../server/platform/rate-limits/window-store.js";
import { MemoryWindowStore } from "../../../../server/store/memory/memory-window-store.js";

/** 2026-11-22T10:00:00Z: the start of a minute and of an hour. */
const T0 = Date.parse("2026-11-22T10:00:00Z");
const MINUTE = 60_000;

const limiterFor = (table: RateLimitTable = DEFAULT_RATE_LIMITS) => {
  const counters = new MemoryWindowStore();
  return new RateLimiter(table, () => counters);
};
/** The class limits on their own: an overall allowance no class can reach. */
const classesOnly: RateLimitTable = { ...DEFAULT_RATE_LIMITS, overall: [{ limit: 1_000_000, window: 3600 }] };

async function consumeTimes(limiter: RateLimiter, times: number, operationId: OperationId | undefined, at: number, scope = "sandbox:p1") {
  let last: Awaited<ReturnType<RateLimiter["consume"]>> | undefined;
  for (let i = 0; i < times; i++) last = await limiter.consume(scope, operationId, at);
  return last!;
}

const classOperations = (Object.keys(operationTable) as OperationId[]).filter((id) => operationTable[id].rateLimitClass !== null);

describe("each operation's class bucket", () => {
  it.each(classOperations)("%s: exactly its class limit per minute, again from the next minute", async (operationId) => {
    const rateClass = operationTable[operationId].rateLimitClass!;
    const { limit } = rateLimits.classes[rateClass];
    const limiter = limiterFor(classesOnly);
    const lastAllowed = await consumeTimes(limiter, limit, operationId, T0 + 5_000);
    expect(lastAllowed.allowed).toBe(true);
    expect(lastAllowed.reported).toMatchObject({ bucket: { name: rateClass, limit }, remaining: 0 });

    const refused = await limiter.consume("sandbox:p1", operationId, T0 + 5_000);
    expect(refused).toMatchObject({
      allowed: false,
      retryAfter: 55,
      reported: { bucket: { name: rateClass, limit, window: 60 }, remaining: 0 },
    });
    expect((await limiter.consume("sandbox:p1", operationId, T0 + MINUTE - 1)).allowed).toBe(false);
    expect((await limiter.consume("sandbox:p1", operationId, T0 + MINUTE)).allowed).toBe(true);
  });
});

describe("the overall buckets", () => {
  it("allow 100 requests in a minute and refuse the 101st until the minute ends", async () => {
    const limiter = limiterFor();
    expect((await consumeTimes(limiter, 100, "getApiHealth", T0)).allowed).toBe(true);
    const refused = await limiter.consume("sandbox:p1", "getApiHealth", T0 + 59_500);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 1, reported: { bucket: { name: "overall_60s", limit: 100, window: 60 } } });
    expect((await limiter.consume("sandbox:p1", "getApiHealth", T0 + MINUTE)).allowed).toBe(true);
  });

  it("allow 1000 requests in an hour: the 1001st waits for the hour, not the minute", async () => {
    const limiter = limiterFor();
    for (let minute = 0; minute < 10; minute++)
      expect((await consumeTimes(limiter, 100, "listTlds", T0 + minute * MINUTE)).allowed).toBe(true);
    const refused = await limiter.consume("sandbox:p1", "listTlds", T0 + 10 * MINUTE);
    expect(refused).toMatchObject({
      allowed: false,
      retryAfter: 50 * 60,
      reported: { bucket: { name: "overall_3600s", limit: 1000, window: 3600 }, remaining: 0 },
    });
    expect((await limiter.consume("sandbox:p1", "listTlds", T0 + 60 * MINUTE - 1)).allowed).toBe(false);
    expect((await limiter.consume("sandbox:p1", "listTlds", T0 + 60 * MINUTE)).allowed).toBe(true);
  });

  it("count requests that match no operation", async () => {
    const limiter = limiterFor();
    await consumeTimes(limiter, 100, undefined, T0);
    expect((await limiter.consume("sandbox:p1", "getApiHealth", T0)).allowed).toBe(false);
  });
});

describe("combining buckets", () => {
  it("a request must fit every bucket: the class refuses while the overall minute has room", async () => {
    const limiter = limiterFor();
    await consumeTimes(limiter, 10, "initiateTransfer", T0);
    const refused = await limiter.consume("sandbox:p1", "initiateTransfer", T0);
    expect(refused.reported.bucket.name).toBe("domain_transfer");
    expect(refused.allowed).toBe(false);
  });

  it("a refused request counts against no bucket", async () => {
    const limiter = limiterFor();
    await consumeTimes(limiter, 10, "initiateTransfer", T0);
    await consumeTimes(limiter, 25, "initiateTransfer", T0);
    const next = await limiter.consume("sandbox:p1", "getApiHealth", T0);
    expect(next.buckets.map((state) => [state.bucket.name, state.remaining])).toEqual([
      ["overall_3600s", 1000 - 11],
      ["overall_60s", 100 - 11],
    ]);
  });

  it("reports the bucket closest to exhaustion, and on a tie the one that resets last", async () => {
    const limiter = limiterFor();
    expect((await limiter.consume("sandbox:p1", "listTlds", T0)).reported.bucket.name).toBe("overall_60s");
    expect((await limiter.consume("sandbox:p1", "renewDomain", T0)).reported).toMatchObject({
      bucket: { name: "domain_update" },
      remaining: 59,
    });
    const tie = limiterFor({
      overall: [
        { limit: 5, window: 3600 },
        { limit: 5, window: 60 },
      ],
      classes: DEFAULT_RATE_LIMITS.classes,
    });
    expect((await tie.consume("sandbox:p1", "getApiHealth", T0)).reported).toMatchObject({
      bucket: { name: "overall_3600s" },
      reset: (T0 + 3600_000) / 1000,
    });
  });

  it("when several buckets are full, Retry-After waits for the last of them", async () => {
    const limiter = limiterFor({
      overall: [
        { limit: 3, window: 3600 },
        { limit: 3, window: 60 },
      ],
      classes: DEFAULT_RATE_LIMITS.classes,
    });
    await consumeTimes(limiter, 3, "getApiHealth", T0);
    const refused = await limiter.consume("sandbox:p1", "getApiHealth", T0 + 30_000);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 3600 - 30, reported: { bucket: { name: "overall_3600s" } } });
  });

  it("scopes are independent: one partner's use leaves another's limits whole", async () => {
    const limiter = limiterFor();
    await consumeTimes(limiter, 100, "getApiHealth", T0, "sandbox:p1");
    expect((await limiter.consume("sandbox:p2", "getApiHealth", T0)).allowed).toBe(true);
  });
});

describe("configuration", () => {
  it("scaleRateLimits multiplies every limit and keeps the windows", () => {
    const scaled = scaleRateLimits(DEFAULT_RATE_LIMITS, 10);
    expect(scaled.overall).toEqual([
      { limit: 10_000, window: 3600 },
      { limit: 1000, window: 60 },
    ]);
    expect(scaled.classes.domain_transfer).toEqual({ limit: 100, window: 60 });
  });

  it("the defaults are the table of the spec (x-rate-limits), 13 classes", () => {
    expect(DEFAULT_RATE_LIMITS).toBe(rateLimits);
    expect(Object.keys(DEFAULT_RATE_LIMITS.classes)).toHaveLength(13);
  });
});

describe("the counters' lifetime", () => {
  it("outlasts every window a counter has, so the sweep forgets only counters that count 0", () => {
    const apiWindowsMs = [...DEFAULT_RATE_LIMITS.overall, ...Object.values(DEFAULT_RATE_LIMITS.classes)].map(({ window }) => window * 1000);
    const { signInWindowMs, signInMaxDelayMs, signUpWindowMs } = DEFAULT_ACCOUNT_LIMITS;
    for (const windowMs of [...apiWindowsMs, signInWindowMs, signInMaxDelayMs, signUpWindowMs])
      expect(windowMs).toBeLessThanOrEqual(COUNTER_LIFETIME_MS);
  });

  it("ends in the memory store with the sweep: counters of ended windows are forgotten, whatever their key", () => {
    const counters = new MemoryWindowStore();
    counters.consume([{ key: "dashboard-sign-in:someone", windowStart: 1_000, limit: 5 }]);
    counters.consume([{ key: "partner:overall_60s", windowStart: 90_000, limit: 5 }]);
    counters.forgetWindowsBefore(90_000);
    expect(counters.peek([{ key: "dashboard-sign-in:someone", windowStart: 1_000, limit: 5 }])).toEqual([0]);
    expect(counters.peek([{ key: "partner:overall_60s", windowStart: 90_000, limit: 5 }])).toEqual([1]);
  });
});
