/** Atomic DNS change sets (POST /api/v1/domains/{domain_id}/dns/changes), on each store. */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids, domainPath, listD, seedD, seedOther, otherRecords } = useDnsRecordFixture();
type ChangeSet = components["schemas"]["DnsChangeSet"];

const apply = (body: ChangeSet, domain_id = ids.domainId) =>
  s.api.POST("/api/v1/domains/{domain_id}/dns/changes", { ...domainPath(domain_id), body });
const zone = async () => (await listD()).map(({ type, name, content, ttl }) => `${type} ${name} ${content} ${ttl}`).sort();
const eventTypes = () => s.outbox.events.map((event) => event.type).filter((type) => type.startsWith("dns_record."));

describe("an applied change set", () => {
  it("replaces the record set of one name and type in one call: delete by name and type, then create", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    await seedD({ type: "A", name: "WWW", content: "192.0.2.2" });
    await seedD({ type: "TXT", name: "www", content: "keep me" });
    s.outbox.events.length = 0;
    const { data, response } = await apply({
      deletes: [{ name: "www", type: "A" }],
      creates: [
        { type: "A", name: "www", content: "203.0.113.20" },
        { type: "A", name: "www", content: "203.0.113.21", ttl: 600 },
      ],
    });
    expect(response.status).toBe(200);
    expect(data!.id).toMatch(/^chg_/);
    expect(data!.dry_run).toBe(false);
    expect(data!.deleted.map((record) => record.content).sort()).toEqual(["192.0.2.1", "192.0.2.2"]);
    expect(data!.created.map((record) => record.content)).toEqual(["203.0.113.20", "203.0.113.21"]);
    expect(await zone()).toEqual(["A www 203.0.113.20 300", "A www 203.0.113.21 600", "TXT www keep me 300"].sort());
    expect(eventTypes()).toEqual(["dns_record.deleted", "dns_record.deleted", "dns_record.created", "dns_record.created"]);
  });

  it("creates a record set that did not exist the same way: deleting an empty set is no error", async () => {
    const { response } = await apply({
      deletes: [{ name: "api", type: "AAAA" }],
      creates: [{ type: "AAAA", name: "api", content: "2001:db8::1" }],
    });
    expect(response.status).toBe(200);
    expect(await zone()).toEqual(["AAAA api 2001:db8::1 300"]);
  });

  it("applies in order deletes, updates, creates: a record can be re-created once deleted, a CNAME once its name is free", async () => {
    const a = await seedD({ type: "A", name: "blog", content: "192.0.2.1" });
    const mx = await seedD({ type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 });
    const { data, response } = await apply({
      creates: [
        { type: "CNAME", name: "blog", content: "blog.example.net" },
        { type: "A", name: "old", content: "192.0.2.1" },
      ],
      updates: [{ id: mx, priority: 20 }],
      deletes: [{ id: a }],
    });
    expect(response.status).toBe(200);
    expect(data!.updated).toMatchObject([{ before: { priority: 10 }, after: { id: mx, priority: 20 } }]);
    expect(await zone()).toEqual(["A old 192.0.2.1 300", "CNAME blog blog.example.net 300", "MX @ mail.adalovelace.com 300"].sort());
  });

  it("fits the most operations in one request: 1000 creates on an empty domain", async () => {
    const creates = Array.from({ length: 1000 }, (_, i) => ({ type: "A" as const, name: `h${i}`, content: "192.0.2.1" }));
    const { data, response } = await apply({ creates });
    expect(response.status).toBe(200);
    expect(data!.created).toHaveLength(1000);
    expect((await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath())).data!.total).toBe(1000);
  });
});

describe("a failing change set", () => {
  it("changes nothing, emits nothing, and names every failing operation by list and index", async () => {
    const a = await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const before = await zone();
    s.outbox.events.length = 0;
    const { error, response } = await apply({
      deletes: [{ id: a }, { id: "rec_missing" }],
      updates: [{ id: a, ttl: 600 }],
      creates: [
        { type: "A", name: "ok", content: "192.0.2.9" },
        { type: "A", name: "bad", content: "not an address" },
        { type: "CNAME", name: "ok", content: "example.net" },
      ],
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({
      error: "unprocessable_entity",
      message: "The change set was not applied; 4 operations fail",
      details: { code: "change_set_rejected" },
    });
    const failures = (error as { details: { errors: Array<{ operation: string; index: number; code: string }> } }).details.errors;
    expect(failures.map(({ operation, index, code }) => `${operation}[${index}] ${code}`)).toEqual([
      "deletes[1] not_found",
      "updates[0] duplicate_operation",
      "creates[1] invalid_format",
      "creates[2] cname_conflict",
    ]);
    expect(await zone()).toEqual(before);
    expect(eventTypes()).toEqual([]);
  });

  it("refuses an update whose if_match is not the record's current entity tag", async () => {
    const a = await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const { response, error } = await apply({ updates: [{ id: a, if_match: '"stale"', content: "192.0.2.2" }] });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({
      details: { errors: [{ operation: "updates", index: 0, code: "precondition_failed", field: "if_match" }] },
    });
    const current = (await s.api.GET("/api/v1/dns_records/{id}", { params: { path: { id: a } } })).response.headers.get("ETag")!;
    expect((await apply({ updates: [{ id: a, if_match: current, content: "192.0.2.2" }] })).response.status).toBe(200);
  });

  it("counts the domain's maximum after the deletes", async () => {
    const seeded = await s.seedRecords(ids.domainId, 1000);
    const full = await apply({ creates: [{ type: "A", name: "one-more", content: "192.0.2.1" }] });
    expect(full.error).toMatchObject({ details: { errors: [{ operation: "creates", index: 0, code: "record_limit_exceeded" }] } });
    const swapped = await apply({ deletes: [{ id: seeded[0]!.id }], creates: [{ type: "A", name: "one-more", content: "192.0.2.1" }] });
    expect(swapped.response.status).toBe(200);
  });

  it("refuses a delete naming both an id and a set, and reaches no other partner's records", async () => {
    const theirs = await seedOther();
    const { error } = await apply({ deletes: [{ id: theirs }, { id: "x", name: "www", type: "A" }] });
    expect(error).toMatchObject({
      details: {
        errors: [
          { operation: "deletes", index: 0, code: "not_found" },
          { operation: "deletes", index: 1, code: "invalid_value" },
        ],
      },
    });
    expect(await otherRecords()).toHaveLength(1);
    expect((await apply({ creates: [{ type: "A", name: "x", content: "192.0.2.1" }] }, ids.otherDomainId)).response.status).toBe(403);
  });
});

describe("a dry run", () => {
  it("answers what the change set would do, and writes and emits nothing", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const before = await zone();
    s.outbox.events.length = 0;
    const { data, response } = await apply({
      dry_run: true,
      deletes: [{ name: "www", type: "A" }],
      creates: [{ type: "A", name: "www", content: "203.0.113.5" }],
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      id: null,
      dry_run: true,
      deleted: [{ content: "192.0.2.1" }],
      updated: [],
      created: [{ content: "203.0.113.5" }],
    });
    expect(await zone()).toEqual(before);
    expect(eventTypes()).toEqual([]);
  });

  it("refuses a failing set as a real run would", async () => {
    const { response } = await apply({ dry_run: true, creates: [{ type: "A", name: "x", content: "nope" }] });
    expect(response.status).toBe(422);
  });
});

describe("concurrent change sets on one zone", () => {
  it("never interleave: each replaces one record set with its own records, and the end state is exactly one of them", async () => {
    const sets = Array.from({ length: 6 }, (_, writer) =>
      Array.from({ length: 3 }, (_, i) => ({ type: "A" as const, name: "www", content: `10.0.${writer}.${i + 1}` })),
    );
    const answers = await Promise.all(sets.map((creates) => apply({ deletes: [{ name: "www", type: "A" }], creates })));
    expect(answers.map((answer) => answer.response.status)).toEqual(Array(6).fill(200));
    const contents = (await listD()).map((record) => record.content).sort();
    expect(sets.map((creates) => creates.map((record) => record.content).sort())).toContainEqual(contents);
  });
});
