/**
 * Opt-in retries: against the reference server's real rate limits, with a fake clock whose sleep
 * moves the server's clock instead of waiting, and with a stub fetch for 503s (the reference
 * server answers 503 only while its database is out of reach).
 */
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../server/platform/rate-limits/policy.js";
import { createPartnerClient, isRateLimited, type RetryClock, type RetryEvent, type RetryOptions } from "../../client/src/index.js";
import { retryingFetch, systemClock } from "../../client/src/retry.js";
import { retryAfterBodyMs, retryAfterHeaderMs, retryDelayMs } from "../../client/src/retry-delay.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

const s = useTestServer({
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    classes: { ...DEFAULT_RATE_LIMITS.classes, user_retrieval: { limit: 2, window: 60 }, user_creation: { limit: 2, window: 60 } },
  },
});

/** Time for the retries: `sleep` records the wait and moves the server's clock by it, at once. */
function fakeClock(): RetryClock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => s.clock.now().getTime(),
    sleep: async (ms) => {
      sleeps.push(ms);
      s.clock.advance(ms);
    },
  };
}

/** A client with retries on, counting what goes on the wire; `stub` may answer instead of the server. */
function client(retry: RetryOptions, stub?: (request: Request, call: number) => Response | undefined) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    return stub?.(request, sent.length) ?? globalThis.fetch(request);
  };
  return { api: createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, fetch, retry }), sent };
}

const getUser = (api: ReturnType<typeof client>["api"]) =>
  api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
const unavailable = (headers: Record<string, string> = {}) => new Response("Service Unavailable", { status: 503, headers });

describe("rate limits (429) on safe requests", () => {
  it("waits Retry-After plus jitter, then succeeds; the caller sees one call", async () => {
    const clock = fakeClock();
    const events: RetryEvent[] = [];
    const { api, sent } = client({ clock, random: () => 0.5, onRetry: (event) => events.push(event) });
    await api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    expect((await getUser(api)).response.status).toBe(200);
    expect((await getUser(api)).response.status).toBe(200);
    // The bucket is full until the minute ends: 60 s at the test server's 10:00:00.
    const { data, error, response } = await getUser(api);
    expect([response.status, error]).toEqual([200, undefined]);
    expect(data!.user_identifier).toBe("u1");
    expect(clock.sleeps).toEqual([60_500]);
    expect(events).toEqual([{ method: "GET", url: `${s.baseUrl}/api/v1/users/u1`, status: 429, retry: 1, delayMs: 60_500 }]);
    expect(sent).toHaveLength(5);
  });

  it("reads details.retry_after when a proxy dropped the Retry-After header", async () => {
    const clock = fakeClock();
    const fetch = async (request: Request) => {
      const answer = await globalThis.fetch(request);
      const headers = new Headers(answer.headers);
      headers.delete("Retry-After");
      return new Response(answer.body, { status: answer.status, headers });
    };
    const api = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, fetch, retry: { clock, random: () => 0 } });
    for (let i = 0; i < 2; i++) await getUser(api);
    expect((await getUser(api)).response.status).toBe(404);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("returns a 429 at once when the wait is longer than maxDelayMs", async () => {
    const clock = fakeClock();
    const { api, sent } = client({ clock, maxDelayMs: 30_000 });
    for (let i = 0; i < 2; i++) await getUser(api);
    const { error, response } = await getUser(api);
    expect(response.status).toBe(429);
    expect(isRateLimited(error) && error.details.retry_after).toBe(60);
    expect(clock.sleeps).toEqual([]);
    expect(sent).toHaveLength(3);
  });

  it("retries a rate-limited POST with one Idempotency-Key, and the user is created once", async () => {
    const clock = fakeClock();
    const { api, sent } = client({ clock, random: () => 0 });
    for (const id of ["a", "b"]) await api.POST("/api/v1/users", { body: { user_identifier: id } });
    const { data, response } = await api.POST("/api/v1/users", { body: { user_identifier: "c" } });
    expect(response.status).toBe(201);
    expect(data!.user_identifier).toBe("c");
    expect(clock.sleeps).toEqual([60_000]);
    const keys = sent.slice(2).map((request) => request.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
    // Every POST got a key of its own.
    expect(new Set(sent.map((request) => request.headers.get("Idempotency-Key"))).size).toBe(3);
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    const { api, sent } = client({ clock: fakeClock() });
    await api.POST("/api/v1/users", { body: { user_identifier: "a" }, headers: { "Idempotency-Key": "job-42" } });
    expect(sent[0]!.headers.get("Idempotency-Key")).toBe("job-42");
  });
});

describe("POST after a lost answer", () => {
  it("a renewal whose answer was lost (a 503 from a proxy after it ran) is charged once: the retry gets the stored answer", async () => {
    const clock = fakeClock();
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const domainId = await s.registerDomainFor("u1", "retried-renewal.com");
    const before = (await s.services.store.findDomain(domainId))!;
    const sent: Request[] = [];
    let first: Response | undefined;
    const lossy = createPartnerClient({
      apiKey: PARTNER_A_KEY,
      baseUrl: s.baseUrl,
      retry: { clock, random: () => 0 },
      fetch: async (request) => {
        sent.push(request);
        if (first) return globalThis.fetch(request);
        // The first attempt reaches the server and runs; its answer is lost on the way back.
        first = await globalThis.fetch(request);
        return unavailable({ "Retry-After": "1" });
      },
    });
    const { response, data } = await lossy.POST("/api/v1/domains/{domain_id}/renew", {
      params: { path: { domain_id: domainId } },
      body: { years: 1 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(data).toEqual(await first!.json());
    const after = (await s.services.store.findDomain(domainId))!;
    expect(after.expiresAt.getUTCFullYear() - before.expiresAt.getUTCFullYear()).toBe(1);
    expect(sent).toHaveLength(2);
  });

  it("retries a POST answered 409 idempotency_key_in_use after its Retry-After, and returns the first attempt's answer", async () => {
    const clock = fakeClock();
    const inUse = Response.json(
      { error: "conflict", message: "in use", details: { field: "Idempotency-Key", code: "idempotency_key_in_use" } },
      { status: 409, headers: { "Retry-After": "1" } },
    );
    const { api, sent } = client({ clock, random: () => 0 }, (_request, call) => (call === 1 ? inUse : undefined));
    const { response } = await api.POST("/api/v1/users", { body: { user_identifier: "u9" } });
    expect(response.status).toBe(201);
    expect(clock.sleeps).toEqual([1000]);
    expect(sent[0]!.headers.get("Idempotency-Key")).toBe(sent[1]!.headers.get("Idempotency-Key"));
  });

  it("does not retry a POST's other 409s", async () => {
    const conflict = Response.json({ error: "conflict", message: "taken", details: { code: "already_registered" } }, { status: 409 });
    const inner = vi.fn(async () => conflict.clone());
    const fetch = retryingFetch(inner, { clock: fakeClock() });
    expect((await fetch(new Request("http://127.0.0.1/x", { method: "POST", body: "{}" }))).status).toBe(409);
    expect(inner).toHaveBeenCalledTimes(1);
  });
});

describe("unavailable (503) and other statuses", () => {
  it("honours Retry-After in seconds and as an HTTP date", async () => {
    const clock = fakeClock();
    const inFiveSeconds = new Date(s.clock.now().getTime() + 5000).toUTCString();
    const { api, sent } = client({ clock, random: () => 0 }, (_request, call) =>
      call === 1 ? unavailable({ "Retry-After": "2" }) : call === 2 ? unavailable({ "Retry-After": inFiveSeconds }) : undefined,
    );
    expect((await api.GET("/api/v1/health")).response.status).toBe(200);
    // The date is absolute: 5 s from the first answer, 3 s after the first wait of 2 s.
    expect(clock.sleeps).toEqual([2000, 3000]);
    expect(sent).toHaveLength(3);
  });

  it("backs off exponentially with jitter when there is no hint, and stops after maxRetries", async () => {
    const clock = fakeClock();
    const { api, sent } = client({ clock, random: () => 0.5, maxRetries: 3, baseDelayMs: 1000 }, () => unavailable());
    const { error, response } = await api.GET("/api/v1/health");
    expect(response.status).toBe(503);
    expect(error).toBe("Service Unavailable");
    // Between half and all of 1 s, 2 s, 4 s: with random 0.5, three quarters.
    expect(clock.sleeps).toEqual([750, 1500, 3000]);
    expect(sent).toHaveLength(4);
  });

  it("caps backoff at maxDelayMs", async () => {
    const clock = fakeClock();
    const { api } = client({ clock, random: () => 0.5, maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 2000 }, () => unavailable());
    await api.GET("/api/v1/health");
    expect(clock.sleeps).toEqual([750, 1500, 2000]);
  });

  it("defaults to two retries", async () => {
    const clock = fakeClock();
    const { api, sent } = client({ clock }, () => unavailable({ "Retry-After": "1" }));
    expect((await api.GET("/api/v1/health")).response.status).toBe(503);
    expect(sent).toHaveLength(3);
    expect(clock.sleeps.every((ms) => ms >= 1000 && ms <= 2000)).toBe(true);
  });

  it("maxRetries 0 sends once", async () => {
    const { api, sent } = client({ clock: fakeClock(), maxRetries: 0 }, () => unavailable());
    expect((await api.GET("/api/v1/health")).response.status).toBe(503);
    expect(sent).toHaveLength(1);
    expect(() => retryingFetch(globalThis.fetch, { maxRetries: -1 })).toThrow(RangeError);
  });

  it("does not retry PUT or DELETE on 503, nor GET or POST on 500 or 502", async () => {
    for (const [method, status] of [
      ["PUT", 503],
      ["DELETE", 503],
      ["POST", 500],
      ["GET", 500],
      ["GET", 502],
    ] as const) {
      const inner = vi.fn(async () => new Response(null, { status }));
      const fetch = retryingFetch(inner, { clock: fakeClock() });
      expect((await fetch(new Request("http://127.0.0.1/x", { method }))).status).toBe(status);
      expect(inner).toHaveBeenCalledTimes(1);
    }
  });

  it("retries HEAD like GET", async () => {
    const inner = vi.fn(async () => unavailable()).mockImplementationOnce(async () => unavailable({ "Retry-After": "0" }));
    inner
      .mockImplementationOnce(async () => unavailable({ "Retry-After": "0" }))
      .mockImplementationOnce(async () => new Response(null, { status: 200 }));
    const fetch = retryingFetch(inner, { clock: fakeClock(), random: () => 0 });
    expect((await fetch(new Request("http://127.0.0.1/x", { method: "HEAD" }))).status).toBe(200);
    expect(inner).toHaveBeenCalledTimes(3);
  });

  it("is off unless asked for", async () => {
    for (const retry of [undefined, false]) {
      let calls = 0;
      const fetch = async () => {
        calls++;
        return unavailable({ "Retry-After": "1" });
      };
      const api = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, fetch, retry });
      expect((await api.GET("/api/v1/health")).response.status).toBe(503);
      expect(calls).toBe(1);
    }
  });
});

describe("the system clock", () => {
  it("sleeps, and a call's signal aborts the wait", async () => {
    await systemClock.sleep(1);
    const controller = new AbortController();
    const api = createPartnerClient({
      apiKey: PARTNER_A_KEY,
      baseUrl: s.baseUrl,
      fetch: async () => unavailable({ "Retry-After": "30" }),
      retry: true,
    });
    const call = api.GET("/api/v1/health", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(systemClock.sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("delay arithmetic", () => {
  const policy = { baseDelayMs: 500, jitterMs: 1000, random: () => 0.25 };

  it("reads Retry-After seconds and dates, and nothing else", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryAfterHeaderMs("17", now)).toBe(17_000);
    expect(retryAfterHeaderMs(" 0 ", now)).toBe(0);
    expect(retryAfterHeaderMs("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterHeaderMs("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterHeaderMs(null, now)).toBeUndefined();
    expect(retryAfterHeaderMs("soon", now)).toBeUndefined();
    expect(retryAfterHeaderMs("-5", now)).toBeUndefined();
  });

  it("reads details.retry_after", () => {
    expect(retryAfterBodyMs({ error: "rate_limit_exceeded", details: { retry_after: 17 } })).toBe(17_000);
    for (const body of [undefined, "x", {}, { details: null }, { details: { retry_after: "17" } }, { details: { retry_after: -1 } }])
      expect(retryAfterBodyMs(body)).toBeUndefined();
  });

  it("a hint plus jitter, never less than the hint; otherwise equal-jitter backoff", () => {
    expect(retryDelayMs(60_000, 0, policy)).toBe(60_250);
    expect(retryDelayMs(60_000, 0, { ...policy, random: () => 0 })).toBe(60_000);
    expect([0, 1, 2].map((attempt) => retryDelayMs(undefined, attempt, policy))).toEqual([313, 625, 1250]);
    expect(retryDelayMs(undefined, 0, { ...policy, random: () => 0 })).toBe(250);
  });
});
