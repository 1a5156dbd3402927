/** The memory stores' histories stay within their retention's count as they grow, whatever a partner sends. */
import { describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../../../server/store/memory/memory-event-store.js";
import { MemoryRequestHistoryStore } from "../../../../server/store/memory/memory-request-history-store.js";
import type { RequestRecord } from "../../../../server/partners/request-history/request-history-store.js";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const policy = { maxAgeMs: 7 * 86_400_000, keepLatest: 100 };

const request = (i: number, overrides: Partial<RequestRecord> = {}): RequestRecord => ({
  partnerId: "ptn_a",
  environment: "sandbox",
  at: new Date(T0 + i),
  method: "GET",
  route: i % 2 === 0 ? "/api/v1/users" : "/api/v1/domains/tlds",
  status: i % 5 === 0 ? 404 : 200,
  requestId: `req_${String(i).padStart(8, "0")}`,
  durationMs: 1,
  keyName: "Key",
  ...overrides,
});

const all = { partnerId: "ptn_a", environment: "sandbox" as const, filter: {}, before: null, limit: 1_000_000 };

describe("the memory request log", () => {
  it("keeps each partner's newest entries up to the count kept as they arrive, in the log and in each filter's index", async () => {
    const log = new MemoryRequestHistoryStore(policy);
    for (let i = 0; i < 1_000; i++) await log.append([request(i)]);
    const kept = await log.page(all);
    expect(kept).toHaveLength(100);
    expect(kept[0]!.requestId).toBe(request(999).requestId);
    expect(kept.at(-1)!.requestId).toBe(request(900).requestId);
    expect(await log.page({ ...all, filter: { route: "/api/v1/users" } })).toHaveLength(50);
    expect(await log.page({ ...all, filter: { statusClass: 4 } })).toHaveLength(20);
    expect(await log.page({ ...all, filter: { requestId: request(10).requestId } })).toEqual([]);
  });

  it("keeps a flood of refusals of one key and route as one entry a minute", async () => {
    const log = new MemoryRequestHistoryStore(policy);
    for (let i = 0; i < 10_000; i++) await log.append([request(i, { status: 429 })]);
    const entries = await log.page(all);
    expect(entries.map((entry) => [entry.route, entry.count])).toEqual([
      ["/api/v1/domains/tlds", 5_000],
      ["/api/v1/users", 5_000],
    ]);
  });

  it("pages through a filter from a place, newest first", async () => {
    const log = new MemoryRequestHistoryStore(policy);
    await log.append(Array.from({ length: 50 }, (_, i) => request(i)));
    const first = await log.page({ ...all, filter: { route: "/api/v1/users" }, limit: 10 });
    const rest = await log.page({ ...all, filter: { route: "/api/v1/users" }, before: first.at(-1)!, limit: 100 });
    expect([...first, ...rest].map((entry) => entry.requestId)).toEqual(
      Array.from({ length: 25 }, (_, i) => request(48 - 2 * i).requestId),
    );
  });
});

describe("the memory event history", () => {
  it("keeps each partner's events within an eighth over the count kept as they are saved", async () => {
    const events = new MemoryEventStore({ maxAgeMs: 30 * 86_400_000, keepLatest: 800 });
    for (let i = 0; i < 10_000; i++)
      await events.saveEvents([
        { id: `evt_${String(i).padStart(8, "0")}`, partnerId: "ptn_a", type: "user.deleted", createdAt: new Date(T0 + i), payload: {} },
      ]);
    const page = await events.eventPage("ptn_a", { types: null, createdAfter: null, createdBefore: null, after: null, limit: 100_000 });
    expect(page.length).toBeGreaterThanOrEqual(800);
    expect(page.length).toBeLessThanOrEqual(900);
    expect(page[0]!.id).toBe("evt_00009999");
    expect(await events.findEvent("ptn_a", "evt_00000000")).toBeUndefined();
  });
});
