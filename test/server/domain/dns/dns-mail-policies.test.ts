/**
 * One SPF record per name (RFC 7208 3.2) and one DMARC record per `_dmarc` name (RFC 7489 6.6.3),
 * on every way a record is written: both variants, updates, bulk and templates.
 */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

type DCreate = components["schemas"]["DnsRecordDCreate"];

const { s, ids, domainPath, createD, listD } = useDnsRecordFixture();

const seedD = async (body: DCreate) => {
  const { data, response } = await createD(body);
  expect(response.status).toBe(201);
  return data!;
};
const applyTemplate = (body: components["schemas"]["DnsTemplateApply"]) =>
  s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(), body });

const SPF_EXISTS = "An SPF record (v=spf1) already exists at @; a name may hold only one (RFC 7208 3.2): change that record instead";
const DMARC_EXISTS =
  "A DMARC record (v=DMARC1) already exists at _dmarc; a name may hold only one (RFC 7489 6.6.3): change that record instead";

describe("POST /api/v1/domains/{domain_id}/dns", () => {
  it("refuses a second SPF record at a name with 409 spf_conflict and changes nothing", async () => {
    const first = await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    const { error, response } = await createD({ type: "TXT", name: "@", content: "v=spf1 include:_spf.google.com ~all" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ error: "conflict", message: SPF_EXISTS, details: { field: "name", code: "spf_conflict" } });
    expect(await listD()).toEqual([first]);
  });

  it("refuses a second DMARC record with 409 dmarc_conflict", async () => {
    await seedD({ type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none" });
    const { error, response } = await createD({ type: "TXT", name: "_dmarc", content: "v=DMARC1; p=reject" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ error: "conflict", message: DMARC_EXISTS, details: { field: "name", code: "dmarc_conflict" } });
  });

  it("accepts other TXT records beside the SPF record", async () => {
    await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    expect((await createD({ type: "TXT", name: "@", content: "google-site-verification=abc" })).response.status).toBe(201);
  });
});

describe("POST /api/v1/dns_records", () => {
  it("refuses a second SPF record with 409 in the list shape", async () => {
    await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    const { error, response } = await s.api.POST("/api/v1/dns_records", {
      body: { domain_id: ids.domainId, type: "TXT", name: "@", value: "v=spf1 a -all" },
    });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: [SPF_EXISTS] });
    expect(await listD()).toHaveLength(1);
  });
});

describe("updates", () => {
  it("PUT refuses turning a TXT record into a second SPF record with 409", async () => {
    await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    const other = await seedD({ type: "TXT", name: "@", content: "hello" });
    const { error, response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: ids.domainId, record_id: other.id } },
      body: { content: "v=spf1 -all" },
    });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { code: "spf_conflict" } });
    expect((await listD()).find((record) => record.id === other.id)).toEqual(other);
  });

  it("PATCH refuses turning an A record into a second SPF record with 409", async () => {
    await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    const a = await seedD({ type: "A", name: "@", content: "203.0.113.10" });
    const { error, response } = await s.api.PATCH("/api/v1/dns_records/{id}", {
      params: { path: { id: a.id } },
      body: { type: "TXT", value: "v=spf1 a -all" },
    });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: [SPF_EXISTS] });
  });

  it("PUT accepts a change of the SPF record itself", async () => {
    const spf = await seedD({ type: "TXT", name: "@", content: "v=spf1 mx ~all" });
    const { response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: ids.domainId, record_id: spf.id } },
      body: { content: "v=spf1 mx -all" },
    });
    expect(response.status).toBe(200);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/bulk", () => {
  it("lists a second SPF record of the request among the refused ones", async () => {
    const { data } = await s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", {
      ...domainPath(),
      body: {
        records: [
          { type: "TXT", name: "@", content: "v=spf1 mx ~all" },
          { type: "TXT", name: "@", content: "v=spf1 a ~all" },
        ],
      },
    });
    expect(data!.created).toHaveLength(1);
    expect(data!.errors).toEqual([{ index: 1, record: { type: "TXT", name: "@", content: "v=spf1 a ~all" }, error: SPF_EXISTS }]);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/template", () => {
  it("refuses a second mail template with 409 spf_conflict and writes none of its records", async () => {
    expect((await applyTemplate({ template_id: "google-workspace" })).response.status).toBe(201);
    const before = await listD();
    const { error, response } = await applyTemplate({
      template_id: "microsoft-365",
      variables: { mx_host: "adalovelace-com.mail.protection.outlook.com" },
    });
    expect(response.status).toBe(409);
    expect(error).toEqual({
      error: "conflict",
      message: `Template microsoft-365: ${SPF_EXISTS}`,
      details: { field: "template_id", code: "spf_conflict" },
    });
    expect(await listD()).toEqual(before);
  });

  it("refuses spf-dmarc beside an existing DMARC record with 409 dmarc_conflict, its SPF record not written either", async () => {
    const dmarc = await seedD({ type: "TXT", name: "_dmarc", content: "v=DMARC1; p=quarantine" });
    const { error, response } = await applyTemplate({ template_id: "spf-dmarc", variables: { report_email: "dmarc@adalovelace.com" } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { field: "template_id", code: "dmarc_conflict" } });
    expect(await listD()).toEqual([dmarc]);
  });

  it("refuses spf-dmarc a second time with other values, leaving one SPF and one DMARC record", async () => {
    await applyTemplate({ template_id: "spf-dmarc", variables: { report_email: "a@adalovelace.com" } });
    const { response } = await applyTemplate({
      template_id: "spf-dmarc",
      variables: { report_email: "b@adalovelace.com", spf_include: "include:_spf.example.net" },
    });
    expect(response.status).toBe(409);
    const records = await listD();
    expect(records.filter((record) => record.content.startsWith("v=spf1"))).toHaveLength(1);
    expect(records.filter((record) => record.name === "_dmarc")).toHaveLength(1);
  });
});
