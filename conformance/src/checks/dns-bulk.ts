/**
 * Bulk creation of DNS records (Variant D): partial, each refused record named by its index with
 * the input as given; the request refused whole only when its shape is wrong or it has too many.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { brief, ownDomain, seedD, zoneOf, type RecordD } from "./dns-records-support.js";

const needs = ["state" as const, "sandbox" as const];
const operations = ["bulkCreateDomainDnsRecords", "listDomainDnsRecords"];

const bulk = (context: CheckContext, domainId: string, body: unknown) =>
  context.api.call("bulkCreateDomainDnsRecords", { path: { domain_id: domainId }, body });

interface BulkError {
  index: number;
  record: Record<string, unknown>;
  error: string;
}

/** The answer's errors by index, each with the input exactly as given and a message. */
function expectErrorsAt(errors: BulkError[], records: Array<Record<string, unknown>>, indexes: number[]): void {
  expect(errors.map((e) => e.index)).toEqual(indexes);
  for (const error of errors) {
    expect({ index: error.index, record: error.record }).toEqual({ index: error.index, record: records[error.index] });
    expect(typeof error.error === "string" && error.error.length > 0).toBe(true);
  }
}

export default defineChecks([
  {
    id: "bulk.partial-creates-the-valid-records",
    title:
      "Bulk is partial: 200, the valid records created (default ttl 300) and readable, the refused ones listed by index with the input as given and why",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "bpa");
      const records = [
        { type: "A", name: "www", content: "192.0.2.10" },
        { type: "MX", name: "@", content: "mail.example.com" },
        { type: "TXT", name: "@", content: "v=spf1 mx ~all", ttl: 3600 },
        { type: "A", name: "bad", content: "999.1.1.1" },
        { type: "CNAME", name: "@", content: "example.net" },
        { type: "MX", name: "@", content: "mail.example.com", priority: 10 },
      ];
      const result = await bulk(context, domain.id, { records });
      expectConforming(result);
      expectStatus(result, 200);
      const created: RecordD[] = result.body.created;
      expect(created.map((r) => ({ ...brief(r), ttl: r.ttl }))).toEqual([
        { type: "A", name: "www", content: "192.0.2.10", priority: null, ttl: 300 },
        { type: "TXT", name: "@", content: "v=spf1 mx ~all", priority: null, ttl: 3600 },
        { type: "MX", name: "@", content: "mail.example.com", priority: 10, ttl: 300 },
      ]);
      expectErrorsAt(result.body.errors, records, [1, 3, 4]);
      // The description's own example: the message says priority is required for MX records.
      expect(result.body.errors[0].error).toMatch(/priority/i);
      const zone = await zoneOf(context, domain.id);
      expect(zone.map((r) => r.id).sort()).toEqual(created.map((r) => r.id).sort());
      for (const record of created) expect(zone.find((r) => r.id === record.id)).toEqual(record);
    },
  },
  {
    id: "bulk.checks-records-against-each-other",
    title:
      "Bulk checks each record against the zone and the records before it in the request: a second CNAME on a name, a duplicate, a record beside an existing CNAME are refused by index",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "bea");
      await seedD(context, domain.id, { type: "CNAME", name: "shop", content: "shops.example.net" });
      await seedD(context, domain.id, { type: "TXT", name: "@", content: "v=spf1 -all" });
      const records = [
        { type: "CNAME", name: "www", content: "example.net" },
        { type: "CNAME", name: "www", content: "example.org" },
        { type: "A", name: "api", content: "192.0.2.1" },
        { type: "A", name: "API", content: "192.0.2.1" },
        { type: "TXT", name: "shop", content: "hello" },
        { type: "A", name: "www", content: "192.0.2.2" },
        { type: "TXT", name: "@", content: "v=spf1 mx -all" },
        { type: "A", name: "api", content: "192.0.2.2" },
      ];
      const result = await bulk(context, domain.id, { records });
      expectConforming(result);
      expectStatus(result, 200);
      expect(result.body.created.map(brief)).toEqual([
        { type: "CNAME", name: "www", content: "example.net", priority: null },
        { type: "A", name: "api", content: "192.0.2.1", priority: null },
        { type: "A", name: "api", content: "192.0.2.2", priority: null },
      ]);
      expectErrorsAt(result.body.errors, records, [1, 3, 4, 5, 6]);
      expect((await zoneOf(context, domain.id)).length).toBe(5);
    },
  },
  {
    id: "bulk.nothing-created-is-still-200",
    title: "A bulk request whose every record is refused answers 200 with created [] and every record in errors, and creates nothing",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "bno");
      const records = [
        { type: "CNAME", name: "@", content: "example.net" },
        { type: "A", name: "www", content: "192.0.2.10", priority: 1 },
        { type: "AAAA", name: "www", content: "192.0.2.10" },
      ];
      const result = await bulk(context, domain.id, { records });
      expectConforming(result);
      expectStatus(result, 200);
      expect(result.body.created).toEqual([]);
      expectErrorsAt(result.body.errors, records, [0, 1, 2]);
      expect(await zoneOf(context, domain.id)).toEqual([]);
    },
  },
  {
    id: "bulk.at-most-100-records",
    title: "A bulk request takes 100 records; 101 are refused whole with 422 validation_error (records, too_long), creating none",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "bmx");
      const hosts = (count: number, stem: string) =>
        Array.from({ length: count }, (_, i) => ({ type: "A", name: `${stem}${i}`, content: "192.0.2.1" }));
      expectCoded(
        await bulk(context, domain.id, { records: hosts(101, "over") }),
        422,
        "validation_error",
        "records",
        "too_long",
        "101 records",
      );
      expect(await zoneOf(context, domain.id)).toEqual([]);
      const hundred = await bulk(context, domain.id, { records: hosts(100, "h") });
      expectConforming(hundred);
      expectStatus(hundred, 200, "100 records");
      expect([hundred.body.created.length, hundred.body.errors]).toEqual([100, []]);
      expect((await zoneOf(context, domain.id)).length).toBe(100);
    },
  },
  {
    id: "bulk.wrong-shape-refused-whole",
    title:
      "A bulk request of the wrong shape is refused whole, creating nothing: records missing (400), empty (422 too_short), a record with an unknown field or missing a field (400 naming records.N.field), a ttl out of range (422 records.N.ttl out_of_range)",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "bsh");
      const ok = { type: "A", name: "www", content: "192.0.2.10" };
      const cases: Array<[string, unknown, number, string, string]> = [
        ["records missing", {}, 400, "records", "missing_required_field"],
        ["records not a list", { records: ok }, 400, "records", "invalid_type"],
        ["records empty", { records: [] }, 422, "records", "too_short"],
        ["an unknown field in record 1", { records: [ok, { ...ok, name: "web", value: "x" }] }, 400, "records.1.value", "unknown_field"],
        ["content missing in record 1", { records: [ok, { type: "A", name: "web" }] }, 400, "records.1.content", "missing_required_field"],
        ["ttl 10 in record 1", { records: [ok, { ...ok, name: "web", ttl: 10 }] }, 422, "records.1.ttl", "out_of_range"],
        ["an unknown field beside records", { records: [ok], replace: true }, 400, "replace", "unknown_field"],
      ];
      for (const [why, body, status, field, code] of cases)
        expectCoded(await bulk(context, domain.id, body), status, "validation_error", field, code, why);
      expect(await zoneOf(context, domain.id)).toEqual([]);
    },
  },
]);
