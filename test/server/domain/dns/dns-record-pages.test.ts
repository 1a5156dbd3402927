/** The record list read one page at a time (whole without `limit`, as in 1.0.0), and a domain detail that embeds every record (x-dns-limits). */
import { describe, expect, it } from "vitest";
import type { DnsRecordRow } from "../../../../server/domain/dns/record-store.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids: domains, domainPath, createD } = useDnsRecordFixture();

const list = (query: { limit?: number; cursor?: string } = {}, domain_id = domains.domainId) =>
  s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id }, query } });

const seedRecords = (n: number, domain_id = domains.domainId) => s.seedRecords(domain_id, n);

/** The list order the spec states: name without regard to case in code-point order, type, creation, id. */
const listOrder = (a: DnsRecordRow, b: DnsRecordRow) => {
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (
    byText(a.name.toLowerCase(), b.name.toLowerCase()) ||
    byText(a.type, b.type) ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    byText(a.id, b.id)
  );
};

/** Every id the list gives, following next_cursor to the end, `between` run after each page. */
async function walk(limit: number | undefined, between: (page: number) => Promise<void> = async () => {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const { data, response } = await list(limit === undefined ? (cursor ? { cursor } : {}) : cursor ? { limit, cursor } : { limit });
    expect(response.status).toBe(200);
    ids.push(...data!.records.map((record) => record.id));
    if (data!.next_cursor === null) return ids;
    cursor = data!.next_cursor;
    await between(page);
  }
}

describe("GET /api/v1/domains/{domain_id}/dns, one page at a time", () => {
  it("answers every record, next_cursor null, when given neither limit nor cursor, as 1.0.0 did", async () => {
    const rows = await seedRecords(250);
    const { data } = await list();
    expect(data!.records.map((record) => record.id)).toEqual(rows.map((row) => row.id));
    expect(data!.total).toBe(250);
    expect(data!.next_cursor).toBeNull();
  });

  it("answers the first 1000 records and a next_cursor for a domain that holds more from before the bound", async () => {
    const rows = await seedRecords(1001);
    const { data } = await list();
    expect(data!.records.map((record) => record.id)).toEqual(rows.slice(0, 1000).map((row) => row.id));
    const rest = await list({ cursor: data!.next_cursor! });
    expect(rest.data).toMatchObject({ records: [{ id: rows[1000]!.id }], total: 1001, next_cursor: null });
  });

  it("answers an empty domain with no records and next_cursor null", async () => {
    expect((await list()).data).toEqual({ records: [], total: 0, next_cursor: null });
  });

  it("pages to the end with limit and cursor, every record once, in list order", async () => {
    const rows = await seedRecords(230);
    expect(await walk(40)).toEqual([...rows].sort(listOrder).map((row) => row.id));
    expect(await walk(undefined)).toEqual(rows.map((row) => row.id));
  });

  it("orders by name (stored in lower case), in code-point order, then type, creation and id", async () => {
    const created: Array<{ id: string; name: string }> = [];
    for (const [type, name, content] of [
      ["TXT", "www", "b"],
      ["A", "mail", "203.0.113.1"],
      ["TXT", "_dmarc", "v=DMARC1; p=none"],
      ["A", "WWW", "203.0.113.2"],
      ["A", "@", "203.0.113.3"],
      ["A", "*.shop", "203.0.113.4"],
      ["A", "1st", "203.0.113.5"],
      ["A", "www", "203.0.113.6"],
    ] as const) {
      s.clock.advance(1000);
      created.push({ id: (await createD({ type, name, content })).data!.id, name });
    }
    const names = (await list()).data!.records.map((record) => record.name);
    expect(names).toEqual(["*.shop", "1st", "@", "_dmarc", "mail", "www", "www", "www"]);
    const byId = (await list()).data!.records.map((record) => record.id);
    const idOf = (index: number) => created[index]!.id;
    // www: the A records (created 4th and 8th) in creation order, then the TXT record.
    expect(byId.slice(5)).toEqual([idOf(3), idOf(7), idOf(0)]);
  });

  it("lists every record that exists all along exactly once when records are created and deleted between pages", async () => {
    const rows = await seedRecords(150);
    const gone = rows[120]!;
    const ids = await walk(50, async (page) => {
      if (page !== 1) return;
      // After the first page (h0000 to h0049): one record before the cursor, one after, one deletion ahead.
      await createD({ type: "A", name: "a-early", content: "203.0.113.10" });
      await createD({ type: "A", name: "z-late", content: "203.0.113.10" });
      await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
        params: { path: { domain_id: domains.domainId, record_id: gone.id } },
      });
    });
    expect(new Set(ids).size).toBe(ids.length);
    const expected = rows.filter((row) => row !== gone).map((row) => row.id);
    expect(ids.filter((id) => expected.includes(id))).toEqual(expected);
    const walked = await walk(100);
    const names = new Map(await Promise.all(walked.map(async (id) => [id, (await s.services.store.findRecord(id))!.name] as const)));
    expect(ids.map((id) => names.get(id))).toContain("z-late");
    expect(ids.map((id) => names.get(id))).not.toContain("a-early");
  });

  it("continues from a cursor whose record was deleted meanwhile", async () => {
    const rows = await seedRecords(30);
    const first = (await list({ limit: 10 })).data!;
    await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domains.domainId, record_id: rows[9]!.id } },
    });
    const { data } = await list({ limit: 10, cursor: first.next_cursor! });
    expect(data!.records.map((record) => record.id)).toEqual(rows.slice(10, 20).map((row) => row.id));
  });

  const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  it.each([
    ["a cursor that is not base64url", () => "not a cursor"],
    ["a cursor that decodes to no JSON", () => "abc"],
    ["a cursor of JSON of another shape", () => encoded({ after: "h0001" })],
    ["a cursor of another version", () => encoded(["r0", domains.domainId, "h0001", "A", 0, "rec_x"])],
    ["a cursor with a time that is no time", () => encoded(["r1", domains.domainId, "h0001", "A", "yesterday", "rec_x"])],
    ["a cursor whose name holds a control character", () => encoded(["r1", domains.domainId, "h\u00001", "A", 0, "rec_x"])],
  ])("refuses %s with 400 invalid_cursor", async (_label, cursor) => {
    await seedRecords(3);
    const { error, response } = await list({ cursor: cursor() });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: "validation_error",
      message: "cursor is not one this list gave out; start again without it",
      details: { field: "cursor", code: "invalid_cursor" },
    });
  });

  it("refuses the cursor of another domain's list with 400 invalid_cursor", async () => {
    await seedRecords(3, domains.secondDomainId);
    const other = (await list({ limit: 1 }, domains.secondDomainId)).data!.next_cursor!;
    const { error, response } = await list({ cursor: other });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: "validation_error",
      message: "cursor belongs to the record list of another domain",
      details: { field: "cursor", code: "invalid_cursor" },
    });
  });

  it.each([0, 1001])("refuses limit %i with 400", async (limit) => {
    const { error, response } = await list({ limit });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "limit", code: "out_of_range" } });
  });
});

describe("GET /api/v1/domains/{domain_id}/dns, filtered by type and name", () => {
  type Filter = { type?: "A" | "TXT" | "MX"; name?: string };
  const filtered = (query: Filter & { limit?: number; cursor?: string }) =>
    s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domains.domainId }, query } });

  /** Records at three names, of two types each, created through the API. */
  async function mixedZone() {
    for (const name of ["www", "api", "Mail"]) {
      for (let i = 1; i <= 3; i++) await createD({ type: "A", name, content: `192.0.2.${i}` });
      await createD({ type: "TXT", name, content: `v=${name}` });
    }
  }

  it.each<[string, Filter, number]>([
    ["a type", { type: "A" }, 9],
    ["a name, without regard to case", { name: "MAIL" }, 4],
    ["a type at a name", { type: "TXT", name: "www" }, 1],
    ["a type no record has", { type: "MX" }, 0],
  ])("selects the records of %s, total counting what it selects", async (_what, filter, count) => {
    await mixedZone();
    const { data } = await filtered(filter);
    expect(data!.total).toBe(count);
    expect(data!.records).toHaveLength(count);
    for (const record of data!.records) {
      if (filter.type) expect(record.type).toBe(filter.type);
      if (filter.name) expect(record.name.toLowerCase()).toBe(filter.name.toLowerCase());
    }
  });

  it("pages a filtered list to the end, each selected record once, in list order", async () => {
    await mixedZone();
    const whole = (await filtered({ type: "A" })).data!.records.map((record) => record.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof filtered>> = await filtered(cursor ? { type: "A", limit: 2, cursor } : { type: "A", limit: 2 });
      seen.push(...page.data!.records.map((record) => record.id));
      cursor = page.data!.next_cursor;
    } while (cursor);
    expect(seen).toEqual(whole);
    expect(seen).toHaveLength(9);
  });

  it("refuses a cursor with other filters than the list it continues with 400 invalid_cursor", async () => {
    await mixedZone();
    const first = (await filtered({ type: "A", limit: 2 })).data!;
    const other = await filtered({ type: "TXT", limit: 2, cursor: first.next_cursor! });
    expect(other.response.status).toBe(400);
    expect(other.error).toMatchObject({ details: { field: "cursor", code: "invalid_cursor" } });
    const unfiltered = (await filtered({ limit: 2 })).data!;
    expect((await filtered({ type: "A", limit: 2, cursor: unfiltered.next_cursor! })).response.status).toBe(400);
  });

  it("refuses a type outside the record types with 400", async () => {
    const { response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domains.domainId }, query: { type: "SPF" as "A" } },
    });
    expect(response.status).toBe(400);
  });
});

describe("GET /api/v1/domains/{domain_id} embeds every record, as 1.0.0 did", () => {
  it("embeds all 250 records of a domain in list order", async () => {
    const rows = await seedRecords(250);
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}", domainPath());
    expect(data!.dns_records.map((record) => record.id)).toEqual(rows.map((row) => row.id));
    expect(data).not.toHaveProperty("dns_records_total");
  });

  it("embeds the first 1000 of a domain that holds more from before the bound", async () => {
    const rows = await seedRecords(1001);
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}", domainPath());
    expect(data!.dns_records.map((record) => record.id)).toEqual(rows.slice(0, 1000).map((row) => row.id));
  });

  it("embeds every record in events too", async () => {
    await seedRecords(250);
    await s.api.PUT("/api/v1/domains/{domain_id}", { ...domainPath(), body: { auto_renew: false } });
    const event = s.outbox.events.find((e) => e.type === "domain.updated")!;
    const data = (event.payload as { data: { dns_records: unknown[] } }).data;
    expect(data.dns_records).toHaveLength(250);
  });
});
