/** At most 1,000 records per domain (x-dns-limits), however they are created. */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

type DCreate = components["schemas"]["DnsRecordDCreate"];

const { s, ids, domainPath, createD } = useDnsRecordFixture();

const MAX = 1000;
const bulk = (records: DCreate[]) => s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(), body: { records } });
const count = (domain_id = ids.domainId) => s.services.store.countRecords(domain_id);

const seedRecords = (n: number, domain_id = ids.domainId) => s.seedRecords(domain_id, n);

const limitError = (holds: number, adds: number) => ({
  error: "unprocessable_entity",
  message: `A domain holds at most ${MAX} DNS records; adalovelace.com holds ${holds} and this request would add ${adds}`,
  details: { code: "record_limit_exceeded", limit: MAX },
});

describe("at most 1,000 records per domain", () => {
  it("creates the 1,000th record and refuses the 1,001st with 422 record_limit_exceeded, through Variant D", async () => {
    await seedRecords(MAX - 1);
    expect((await createD({ type: "A", name: "last", content: "203.0.113.10" })).response.status).toBe(201);
    const events = s.outbox.events.length;
    const { error, response } = await createD({ type: "A", name: "over", content: "203.0.113.10" });
    expect(response.status).toBe(422);
    expect(error).toEqual(limitError(MAX, 1));
    expect(await count()).toBe(MAX);
    expect(s.outbox.events).toHaveLength(events);
  });

  it("refuses the 1,001st through Variant R in the list shape", async () => {
    await seedRecords(MAX);
    const { error, response } = await s.api.POST("/api/v1/dns_records", {
      body: { domain_id: ids.domainId, type: "A", name: "over", value: "203.0.113.10" },
    });
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors: [limitError(MAX, 1).message] });
    expect(await count()).toBe(MAX);
  });

  it("refuses a bulk request that would pass the limit as a whole, creating none of its records", async () => {
    await seedRecords(950);
    const records = Array.from({ length: 51 }, (_, i) => ({ type: "A" as const, name: `bulk${i}`, content: "203.0.113.10" }));
    const { error, response } = await bulk(records);
    expect(response.status).toBe(422);
    expect(error).toEqual(limitError(950, 51));
    expect(await count()).toBe(950);
    expect((await bulk(records.slice(0, 50))).data!.created).toHaveLength(50);
    expect(await count()).toBe(MAX);
  });

  it("counts only the records of a bulk request that pass the rules", async () => {
    await seedRecords(990);
    const valid = Array.from({ length: 10 }, (_, i) => ({ type: "A" as const, name: `bulk${i}`, content: "203.0.113.10" }));
    const { data, response } = await bulk([
      ...valid,
      { type: "CNAME", name: "@", content: "example.net" },
      { type: "A", name: "h0001", content: "192.0.2.1" },
    ]);
    expect(response.status).toBe(200);
    expect(data!.created).toHaveLength(10);
    expect(data!.errors.map((e) => e.index)).toEqual([10, 11]);
    expect(await count()).toBe(MAX);
  });

  it("refuses a template that would pass the limit, creating none of its records", async () => {
    await seedRecords(MAX - 1);
    const { error, response } = await s.api.POST("/api/v1/domains/{domain_id}/dns/template", {
      ...domainPath(),
      body: { template_id: "web-host", variables: { ip: "203.0.113.10" } },
    });
    expect(response.status).toBe(422);
    expect(error).toEqual(limitError(MAX - 1, 2));
    expect(await count()).toBe(MAX - 1);
  });

  it("makes room again when a record is deleted", async () => {
    const [first] = await seedRecords(MAX);
    expect(
      (
        await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
          params: { path: { domain_id: ids.domainId, record_id: first!.id } },
        })
      ).response.status,
    ).toBe(204);
    expect((await createD({ type: "A", name: "again", content: "203.0.113.10" })).response.status).toBe(201);
  });

  it("lets an update of a full domain's record through: it adds nothing", async () => {
    const [first] = await seedRecords(MAX);
    const { response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: ids.domainId, record_id: first!.id } },
      body: { ttl: 600 },
    });
    expect(response.status).toBe(200);
  });

  it("counts per domain", async () => {
    await seedRecords(MAX);
    expect((await createD({ type: "A", name: "www", content: "203.0.113.10" }, ids.secondDomainId)).response.status).toBe(201);
  });

  it("lets exactly as many concurrent creates through as there is room for", async () => {
    await seedRecords(MAX - 5);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createD({ type: "A", name: `race${i}`, content: "203.0.113.10" })),
    );
    expect(answers.filter((answer) => answer.response.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.response.status === 422)).toHaveLength(7);
    expect(await count()).toBe(MAX);
  });
});
