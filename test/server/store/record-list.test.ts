/** MemoryStore's record list: list order kept through every change, pages from any position, bounded adds. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../server/store/memory/memory-store.js";
import type { DnsRecordRow, RecordListPosition } from "../../../server/domain/dns/record-store.js";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const row = (id: string, domainId: string, name: string, type: DnsRecordRow["type"], minute: number): DnsRecordRow => ({
  id,
  domainId,
  type,
  name,
  content: id,
  ttl: 300,
  priority: null,
  comment: null,
  locked: false,
  createdAt: new Date(T0 + minute * 60_000),
  updatedAt: new Date(T0 + minute * 60_000),
});

/** The order the Store interface states, written out independently of the store's own key. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const listOrder = (a: RecordListPosition, b: RecordListPosition) =>
  byText(a.name.toLowerCase(), b.name.toLowerCase()) ||
  byText(a.type, b.type) ||
  a.createdAt.getTime() - b.createdAt.getTime() ||
  byText(a.id, b.id);

describe("recordPage", () => {
  it("agrees with sorting the zone, from the start and after any position, whatever the sequence of saves and deletes", async () => {
    const names = fc.constantFrom("@", "www", "WWW", "mail", "_dmarc", "*", "1a", "a-b", "a.b");
    const types = fc.constantFrom<DnsRecordRow["type"]>("A", "AAAA", "TXT", "MX");
    const action = fc.oneof(
      fc.record({
        kind: fc.constant("save" as const),
        id: fc.integer({ min: 1, max: 30 }),
        domain: fc.constantFrom("dom_a", "dom_b"),
        name: names,
        type: types,
        minute: fc.integer({ min: 0, max: 3 }),
      }),
      fc.record({ kind: fc.constant("delete" as const), id: fc.integer({ min: 1, max: 30 }) }),
    );
    const position = fc.record({
      name: names,
      type: types,
      createdAt: fc.integer({ min: -1, max: 4 }).map((m) => new Date(T0 + m * 60_000)),
      id: fc.constantFrom("rec_0", "rec_15", "rec_9"),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 80 }), position, fc.integer({ min: 1, max: 40 }), async (actions, after, limit) => {
        const store = new MemoryStore();
        const rows = new Map<string, DnsRecordRow>();
        for (const step of actions) {
          const id = `rec_${step.id}`;
          if (step.kind === "delete") {
            await store.deleteRecord(id);
            rows.delete(id);
          } else {
            // A record keeps its domain and creation time; name and type may change (a rename, a Variant R type change).
            const previous = rows.get(id);
            const saved = previous
              ? { ...previous, name: step.name, type: step.type }
              : row(id, step.domain, step.name, step.type, step.minute);
            await store.saveRecord(saved);
            rows.set(id, saved);
          }
        }
        for (const domainId of ["dom_a", "dom_b"]) {
          const expected = [...rows.values()].filter((r) => r.domainId === domainId).sort(listOrder);
          expect(await store.recordsOfDomain(domainId)).toEqual(expected);
          expect(await store.countRecords(domainId)).toBe(expected.length);
          expect(await store.recordPage(domainId, null, limit)).toEqual(expected.slice(0, limit));
          expect(await store.recordPage(domainId, after, limit)).toEqual(expected.filter((r) => listOrder(r, after) > 0).slice(0, limit));
        }
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });
});

describe("addRecords", () => {
  it("adds all records while the domain stays within the maximum, and none when it would not", async () => {
    const store = new MemoryStore();
    expect(await store.addRecords("dom_a", [row("rec_1", "dom_a", "a", "A", 0), row("rec_2", "dom_a", "b", "A", 0)], 3)).toBe(true);
    expect(await store.addRecords("dom_a", [row("rec_3", "dom_a", "c", "A", 0), row("rec_4", "dom_a", "d", "A", 0)], 3)).toBe(false);
    expect((await store.recordsOfDomain("dom_a")).map((r) => r.id)).toEqual(["rec_1", "rec_2"]);
    expect(await store.findRecord("rec_3")).toBeUndefined();
    expect(await store.addRecords("dom_a", [row("rec_3", "dom_a", "c", "A", 0)], 3)).toBe(true);
    expect(await store.addRecords("dom_b", [row("rec_5", "dom_b", "a", "A", 0)], 3)).toBe(true);
  });
});
