/**
 * Atomic DNS change sets (Variant D, an addition): deletes, updates and creates of one domain,
 * all or none, in that order; every failing operation named by list and index; dry runs write
 * nothing; what the answer says was done is what the zone then holds.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { createD, expectZoneUnchanged, ownDomain, seedD, zoneOf, zoneLines, type RecordD } from "./dns-records-support.js";

const needs = ["state" as const, "sandbox" as const];
const operations = ["applyDnsChangeSet", "listDomainDnsRecords"];

const change = (context: CheckContext, domainId: string, body: Record<string, unknown>) =>
  context.api.call("applyDnsChangeSet", { path: { domain_id: domainId }, body });

/** One failing operation as `details.errors` names it; `field` null where the spec has none (a set-wide failure). */
interface Failure {
  operation: string;
  index: number;
  code: string;
  field: string | null;
}

/** 422 unprocessable_entity, change_set_rejected, naming exactly these failures, each with its field. */
function expectRejected(result: Awaited<ReturnType<typeof change>>, failures: Failure[], why: string): void {
  expectCoded(result, 422, "unprocessable_entity", undefined, "change_set_rejected", why);
  const named = (result.body.details.errors ?? []).map(
    (e: Partial<Failure>): Failure => ({ operation: e.operation!, index: e.index!, code: e.code!, field: e.field ?? null }),
  );
  // The spec does not order details.errors: compared as a set.
  const key = (e: Failure) => `${e.operation}.${e.index}.${e.code} field ${e.field ?? "(none)"}`;
  expect({ why, failures: named.map(key).sort() }).toEqual({ why, failures: failures.map(key).sort() });
}

const byId = (records: readonly RecordD[]) => [...records].sort((a, b) => a.id.localeCompare(b.id));

/** JSON with each object's members in name order: member order carries no meaning (a store may keep JSON reordered). */
const canonicalJson = (value: unknown) =>
  JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );

export default defineChecks([
  {
    id: "change-sets.all-or-none",
    title:
      "A change set with one failing operation answers 422 change_set_rejected naming it by list and index, and the zone is exactly as before (no delete, update or create applied)",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "csa");
      const www = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const api = await seedD(context, domain.id, { type: "A", name: "api", content: "192.0.2.2" });
      const before = await zoneOf(context, domain.id);
      expectRejected(
        await change(context, domain.id, {
          deletes: [{ name: "www", type: "A" }],
          updates: [{ id: api.id, content: "192.0.2.3" }],
          creates: [
            { type: "TXT", name: "www", content: "would be created" },
            { type: "CNAME", name: "www", content: "example.net" },
          ],
        }),
        [{ operation: "creates", index: 1, code: "cname_conflict", field: "name" }],
        "a CNAME beside a TXT the same set creates",
      );
      await expectZoneUnchanged(context, domain.id, before, "a refused change set changes nothing");
      expectRejected(
        await change(context, domain.id, {
          deletes: [{ id: www.id }],
          updates: [{ id: api.id, ttl: 600 }],
          creates: [{ type: "MX", name: "@", content: "mail.example.com" }],
        }),
        [{ operation: "creates", index: 0, code: "missing_required_field", field: "priority" }],
        "an MX without priority after a valid delete and update",
      );
      await expectZoneUnchanged(context, domain.id, before, "a refused change set changes nothing");
    },
  },
  {
    id: "change-sets.every-failure-named",
    title:
      "A refused change set names every failing operation (not only the first) by list, index, code and field: not_found, duplicate_operation, invalid_format (of a create and of an update), missing_required_field, duplicate_record",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "csn");
      const record = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const other = await seedD(context, domain.id, { type: "A", name: "api", content: "192.0.2.2" });
      const before = await zoneOf(context, domain.id);
      expectRejected(
        await change(context, domain.id, {
          deletes: [{ id: `${record.id}x` }, { name: "nothing", type: "TXT" }],
          updates: [
            { id: record.id, ttl: 600 },
            { id: record.id, ttl: 700 },
            { id: `${record.id}y`, ttl: 600 },
            { id: other.id, content: "192.0.2" },
          ],
          creates: [
            { type: "A", name: "ok", content: "192.0.2.9" },
            { type: "A", name: "bad", content: "192.0.2" },
            { type: "MX", name: "@", content: "mail.example.com" },
            { type: "A", name: "ok", content: "192.0.2.9" },
          ],
        }),
        [
          { operation: "deletes", index: 0, code: "not_found", field: "id" },
          { operation: "updates", index: 1, code: "duplicate_operation", field: "id" },
          { operation: "updates", index: 2, code: "not_found", field: "id" },
          { operation: "updates", index: 3, code: "invalid_format", field: "content" },
          { operation: "creates", index: 1, code: "invalid_format", field: "content" },
          { operation: "creates", index: 2, code: "missing_required_field", field: "priority" },
          { operation: "creates", index: 3, code: "duplicate_record", field: "name" },
        ],
        "seven failing operations",
      );
      await expectZoneUnchanged(context, domain.id, before, "a refused change set changes nothing");
      const outOfBounds = await change(context, domain.id, { updates: [{ id: record.id, ttl: 59 }] });
      expectCoded(outOfBounds, 422, "validation_error", "updates.0.ttl", "out_of_range", "a ttl out of its schema's bounds");
    },
  },
  {
    id: "change-sets.dry-run-writes-nothing",
    title:
      "dry_run answers 200 with id null and what the set would do, and writes nothing; the same set applied answers an id and the zone holds its result",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "csd");
      const old = await seedD(context, domain.id, { type: "A", name: "api", content: "192.0.2.1" });
      const before = await zoneOf(context, domain.id);
      const body = { deletes: [{ name: "api", type: "A" }], creates: [{ type: "A", name: "api", content: "192.0.2.7" }] };
      const dry = await change(context, domain.id, { ...body, dry_run: true });
      expectConforming(dry);
      expectStatus(dry, 200, "a dry run");
      expect([dry.body.id, dry.body.dry_run, dry.body.deleted, dry.body.updated]).toEqual([null, true, [old], []]);
      expect(dry.body.created.map((r: RecordD) => [r.type, r.name, r.content, r.ttl])).toEqual([["A", "api", "192.0.2.7", 300]]);
      await expectZoneUnchanged(context, domain.id, before, "a dry run writes nothing");
      const applied = await change(context, domain.id, body);
      expectConforming(applied);
      expectStatus(applied, 200);
      expect(typeof applied.body.id === "string" && applied.body.id.length > 0).toBe(true);
      expect(applied.body.dry_run).toBe(false);
      expect(zoneLines(await zoneOf(context, domain.id))).toEqual(["A api 192.0.2.7 ttl=300 priority=null"]);
      // A dry run of a failing set is refused as the real one would be.
      expectRejected(
        await change(context, domain.id, { creates: [{ type: "CNAME", name: "api", content: "example.net" }], dry_run: true }),
        [{ operation: "creates", index: 0, code: "cname_conflict", field: "name" }],
        "a failing dry run",
      );
    },
  },
  {
    id: "change-sets.result-equals-the-zone",
    title:
      "An applied change set's deleted, updated (before and after) and created records are exactly what the zone read back lost, changed and gained",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "csr");
      const a1 = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const a2 = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2" });
      const mx = await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", priority: 10 });
      const txt = await seedD(context, domain.id, { type: "TXT", name: "note", content: "keep me" });
      const gone = await seedD(context, domain.id, { type: "TXT", name: "old", content: "delete me" });
      const kept = await seedD(context, domain.id, { type: "AAAA", name: "v6", content: "2001:db8::1" });
      const before = await zoneOf(context, domain.id);
      const result = await change(context, domain.id, {
        deletes: [{ name: "WWW", type: "A" }, { id: gone.id }],
        updates: [
          { id: mx.id, priority: 20, ttl: 600 },
          { id: txt.id, content: "changed", name: "Note2" },
        ],
        creates: [
          { type: "CNAME", name: "www", content: "example.net" },
          { type: "SRV", name: "_sip._tcp", content: "5 1 5060 sip.example.com", ttl: 120 },
        ],
      });
      expectConforming(result);
      expectStatus(result, 200);
      expect(byId(result.body.deleted)).toEqual(byId([a1, a2, gone]));
      expect(result.body.updated.map((u: { before: RecordD }) => u.before)).toEqual([mx, txt]);
      expect(result.body.updated.map((u: { after: RecordD }) => ({ ...u.after, updated_at: "" }))).toEqual([
        { ...mx, priority: 20, ttl: 600, updated_at: "" },
        { ...txt, content: "changed", name: "note2", updated_at: "" },
      ]);
      expect(result.body.created.map((r: RecordD) => [r.type, r.name, r.content, r.ttl, r.priority])).toEqual([
        ["CNAME", "www", "example.net", 300, null],
        ["SRV", "_sip._tcp", "5 1 5060 sip.example.com", 120, 5],
      ]);
      const removed = new Set(
        [...result.body.deleted, ...result.body.updated.map((u: { before: RecordD }) => u.before)].map((r: RecordD) => r.id),
      );
      const expected = [
        ...before.filter((r) => !removed.has(r.id)),
        ...result.body.updated.map((u: { after: RecordD }) => u.after),
        ...result.body.created,
      ];
      expect(byId(await zoneOf(context, domain.id))).toEqual(byId(expected));
      expect(expected.map((r) => r.id)).toContain(kept.id);
    },
  },
  {
    id: "change-sets.deletes-then-updates-then-creates",
    title:
      "Operations apply in order deletes, updates, creates, each checked against the zone the ones before leave: a record set replaced by a CNAME, a name freed then taken; deleting an empty set is no error",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "cso");
      await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2" });
      const blog = await seedD(context, domain.id, { type: "CNAME", name: "blog", content: "old.example.net" });
      const api = await seedD(context, domain.id, { type: "A", name: "api", content: "192.0.2.3" });
      const result = await change(context, domain.id, {
        deletes: [{ name: "www", type: "A" }, { id: blog.id }, { name: "none", type: "MX" }],
        updates: [{ id: api.id, name: "blog" }],
        creates: [
          { type: "CNAME", name: "www", content: "example.net" },
          { type: "CNAME", name: "api", content: "api.example.net" },
        ],
      });
      expectConforming(result);
      expectStatus(
        result,
        200,
        "replacing an A set by a CNAME, moving a record onto a CNAME's name a delete freed, a CNAME where an update moved a record away",
      );
      expect(zoneLines(await zoneOf(context, domain.id))).toEqual([
        "A blog 192.0.2.3 ttl=300 priority=null",
        "CNAME api api.example.net ttl=300 priority=null",
        "CNAME www example.net ttl=300 priority=null",
      ]);
      const created = await change(context, domain.id, {
        deletes: [{ name: "mail", type: "MX" }],
        creates: [{ type: "MX", name: "mail", content: "mx1.example.net", priority: 10 }],
      });
      expectStatus(created, 200, "deleting an empty record set and creating it");
      expect(created.body.deleted).toEqual([]);
      expectRejected(
        await change(context, domain.id, { deletes: [{ id: api.id, name: "blog", type: "A" }] }),
        [{ operation: "deletes", index: 0, code: "invalid_value", field: null }],
        "a delete naming both an id and a set",
      );
    },
  },
  {
    id: "change-sets.if-match",
    title:
      "An update carrying if_match applies only to the record's current entity tag; a stale one fails the set with precondition_failed, changing nothing",
    needs,
    operations: [...operations, "createDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "csi");
      const created = await createD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      expectStatus(created, 201);
      const tag = created.headers.get("etag");
      if (!tag) throw new Error(`${created.label} answered no ETag for the record it created`);
      const first = await change(context, domain.id, { updates: [{ id: created.body.id, if_match: tag, ttl: 600 }] });
      expectStatus(first, 200, "if_match with the current tag");
      const before = await zoneOf(context, domain.id);
      expectRejected(
        await change(context, domain.id, { updates: [{ id: created.body.id, if_match: tag, ttl: 900 }] }),
        [{ operation: "updates", index: 0, code: "precondition_failed", field: "if_match" }],
        "if_match with the tag before the change",
      );
      await expectZoneUnchanged(context, domain.id, before, "a stale if_match changes nothing");
    },
  },
  {
    id: "change-sets.at-most-1000-operations",
    title:
      "A change set of 1000 operations in all is applied; 1001 (no list past its own bound) are refused with 422 change_set_rejected, one too_many_changes at index 0 of the last list with operations, changing nothing",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "csm");
      // Deleting an empty record set is no error, so a large set needs no records to exist.
      const deletes = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `gone${i}`, type: "TXT" }));
      const creates = (count: number) => Array.from({ length: count }, (_, i) => ({ type: "A", name: `h${i}`, content: "192.0.2.1" }));
      const updates = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `${context.unique("rec")}${i}`, ttl: 600 }));
      // One failure, at index 0 of the list where the count passes the limit: the last list with
      // operations (each list alone is bounded by the limit, so never deletes).
      for (const [body, list] of [
        [{ deletes: deletes(500), creates: creates(501) }, "creates"],
        [{ deletes: deletes(600), updates: updates(401) }, "updates"],
      ] as const) {
        const over = await change(context, domain.id, body);
        expectRejected(
          over,
          [{ operation: list, index: 0, code: "too_many_changes", field: null }],
          `1001 operations, the last in ${list}`,
        );
      }
      expect(await zoneOf(context, domain.id)).toEqual([]);
      const full = await change(context, domain.id, { deletes: deletes(500), creates: creates(500) });
      expectStatus(full, 200, "1000 operations");
      expect(full.body.created.length).toBe(500);
      expect((await zoneOf(context, domain.id)).length).toBe(500);
    },
  },
  {
    id: "change-sets.one-event-per-record",
    title:
      "An applied change set emits one dns_record.deleted, dns_record.updated or dns_record.created event per record, each with the record as answered; a dry run emits none",
    needs,
    operations: [...operations, "listEvents"],
    async run(context) {
      const domain = await ownDomain(context, "cse");
      const old = await seedD(context, domain.id, { type: "A", name: "old", content: "192.0.2.1" });
      const moved = await seedD(context, domain.id, { type: "A", name: "moved", content: "192.0.2.2" });
      const body = {
        deletes: [{ id: old.id }],
        updates: [{ id: moved.id, ttl: 600 }],
        creates: [
          { type: "A", name: "new1", content: "192.0.2.3" },
          { type: "A", name: "new2", content: "192.0.2.4" },
        ],
      };
      expectStatus(await change(context, domain.id, { ...body, dry_run: true }), 200, "a dry run");
      const applied = await change(context, domain.id, body);
      expectStatus(applied, 200);
      // The kit runs its checks one at a time, so the newest page of events holds all of this zone's.
      const events = await context.api.call("listEvents", { query: { limit: 100 } });
      expectConforming(events);
      expectStatus(events, 200);
      // Events of one second have no documented order among themselves: compared as a set, the seeded creates left out.
      const seeded = new Set([`dns_record.created ${old.id}`, `dns_record.created ${moved.id}`]);
      const ours = (events.body.events as Array<{ type: string; domain_id: string; data: RecordD }>)
        .filter((event) => event.type.startsWith("dns_record.") && event.domain_id === domain.id)
        .filter((event) => !seeded.has(`${event.type} ${event.data.id}`))
        .map((event) => canonicalJson([event.type, event.data]))
        .sort();
      const expected = [
        ["dns_record.deleted", applied.body.deleted[0]],
        ["dns_record.updated", applied.body.updated[0].after],
        ["dns_record.created", applied.body.created[0]],
        ["dns_record.created", applied.body.created[1]],
      ].map((event) => canonicalJson(event));
      expect(ours).toEqual(expected.sort());
    },
  },
]);
