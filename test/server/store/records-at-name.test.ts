/** MemoryStore's index of records by name, which zone conflict checks read instead of the whole zone. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../server/store/memory/memory-store.js";
import type { DnsRecordRow } from "../../../server/domain/dns/record-store.js";

const at = new Date("2026-11-22T10:00:00Z");
const record = (id: string, domainId: string, name: string): DnsRecordRow => ({
  id,
  domainId,
  type: "TXT",
  name,
  content: id,
  ttl: 300,
  priority: null,
  comment: null,
  locked: false,
  createdAt: at,
  updatedAt: at,
});
const ids = (rows: DnsRecordRow[]) => rows.map((row) => row.id).sort();

describe("recordsAtName", () => {
  it("finds a zone's records at a name without regard to case, and only that zone's", async () => {
    const store = new MemoryStore();
    await store.saveRecord(record("rec_1", "dom_a", "www"));
    await store.saveRecord(record("rec_2", "dom_a", "WWW"));
    await store.saveRecord(record("rec_3", "dom_a", "mail"));
    await store.saveRecord(record("rec_4", "dom_b", "www"));
    expect(ids(await store.recordsAtName("dom_a", "Www"))).toEqual(["rec_1", "rec_2"]);
    expect(ids(await store.recordsAtName("dom_b", "www"))).toEqual(["rec_4"]);
    expect(await store.recordsAtName("dom_c", "www")).toEqual([]);
  });

  it("follows renames and deletions, and hands out copies", async () => {
    const store = new MemoryStore();
    await store.saveRecord(record("rec_1", "dom_a", "www"));
    await store.saveRecord({ ...record("rec_1", "dom_a", "api"), content: "renamed" });
    expect(await store.recordsAtName("dom_a", "www")).toEqual([]);
    const [copy] = await store.recordsAtName("dom_a", "api");
    expect(copy?.content).toBe("renamed");
    copy!.name = "changed";
    expect((await store.findRecord("rec_1"))?.name).toBe("api");
    await store.deleteRecord("rec_1");
    expect(await store.recordsAtName("dom_a", "api")).toEqual([]);
  });

  it("always agrees with filtering the whole zone, whatever the sequence of saves and deletes", async () => {
    const names = fc.constantFrom("@", "www", "WWW", "mail", "_dmarc", "*");
    const action = fc.oneof(
      fc.record({
        kind: fc.constant("save" as const),
        id: fc.integer({ min: 1, max: 8 }),
        domain: fc.constantFrom("dom_a", "dom_b"),
        name: names,
      }),
      fc.record({ kind: fc.constant("delete" as const), id: fc.integer({ min: 1, max: 8 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
        const store = new MemoryStore();
        for (const step of actions) {
          if (step.kind === "delete") await store.deleteRecord(`rec_${step.id}`);
          else
            await store.saveRecord(
              record(`rec_${step.id}`, (await store.findRecord(`rec_${step.id}`))?.domainId ?? step.domain, step.name),
            );
        }
        for (const domainId of ["dom_a", "dom_b"]) {
          for (const name of ["@", "www", "Www", "mail", "_dmarc", "*"]) {
            const expected = (await store.recordsOfDomain(domainId)).filter((row) => row.name.toLowerCase() === name.toLowerCase());
            expect(ids(await store.recordsAtName(domainId, name))).toEqual(ids(expected));
          }
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });
});
