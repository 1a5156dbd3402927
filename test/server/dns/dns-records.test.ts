/**
 * DNS records through the API: Variant R (/api/v1/dns_records, `value`, list-shaped errors) and
 * Variant D (/api/v1/domains/{domain_id}/dns*, `content`, coded errors), one zone behind both.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { components } from "../../../generated/types/full.js";
import { PARTNER_A_KEY, useTestServer } from "../../support/test-server.js";

type DCreate = components["schemas"]["DnsRecordDCreate"];
type RCreate = components["schemas"]["DnsRecordRCreate"];
type DRecord = components["schemas"]["DnsRecordD"];

const s = useTestServer();
/** adalovelace.com, partner A's domain of user u1. */
let domainId: string;
/** adalovelace.io, a second domain of the same user. */
let secondDomainId: string;
/** gracehopper.com, partner B's domain of user b1. */
let otherDomainId: string;

beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
  domainId = s.registerDomainFor("u1", "adalovelace.com");
  secondDomainId = s.registerDomainFor("u1", "adalovelace.io");
  otherDomainId = s.registerDomainFor("b1", "gracehopper.com", "partner_b");
});

const NOW = "2026-11-22T10:00:00Z";
const REC_ID = /^rec_[A-Za-z0-9]+$/;

const domainPath = (domain_id = domainId) => ({ params: { path: { domain_id } } });
const recordPath = (record_id: string, domain_id = domainId) => ({ params: { path: { domain_id, record_id } } });

const createD = (body: DCreate, domain_id = domainId) => s.api.POST("/api/v1/domains/{domain_id}/dns", { ...domainPath(domain_id), body });
const createR = (body: Omit<RCreate, "domain_id"> & { domain_id?: string }) => s.api.POST("/api/v1/dns_records", { body: { domain_id: domainId, ...body } });
const getR = (id: string) => s.api.GET("/api/v1/dns_records/{id}", { params: { path: { id } } });
const listD = async (domain_id = domainId): Promise<DRecord[]> => {
  const { data, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(domain_id));
  expect(response.status).toBe(200);
  return data!.records;
};
/** Creates a record through Variant D and returns its id, failing loudly if it was refused. */
const seedD = async (body: DCreate, domain_id = domainId): Promise<string> => {
  const { data, response } = await createD(body, domain_id);
  expect(response.status).toBe(201);
  return data!.id;
};
/** Partner B's own record on its own domain. */
const seedOther = async (): Promise<string> => {
  const { data, response } = await s.otherPartner.POST("/api/v1/domains/{domain_id}/dns", { ...domainPath(otherDomainId), body: { type: "A", name: "www", content: "198.51.100.7" } });
  expect(response.status).toBe(201);
  return data!.id;
};
const otherRecords = async () => (await s.otherPartner.GET("/api/v1/domains/{domain_id}/dns", domainPath(otherDomainId))).data!.records;
const eventsOf = (type: string) => s.outbox.events.filter((event) => event.type === type);

const forbiddenD = { error: "forbidden", message: "You do not have access to this domain" };
const forbiddenR = { errors: ["You do not have access to this domain"] };
const coded = (status: 400 | 409 | 422, message: string, field: string, code: string) => ({
  error: status === 409 ? "conflict" : "validation_error",
  message,
  details: { field, code },
});

// 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters.
const NAME_253 = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(61)].join(".");
const NAME_254 = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(62)].join(".");

describe("POST /api/v1/dns_records", () => {
  it("creates an A record with 201, the Variant R shape and the default ttl of 3600", async () => {
    const { data, response } = await createR({ type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: expect.stringMatching(REC_ID), domain_id: domainId, type: "A", name: "www", value: "203.0.113.10", ttl: 3600, priority: null, weight: null, port: null, target: null });
  });

  it("creates an MX record with its priority and the ttl given", async () => {
    const { data, response } = await createR({ type: "MX", name: "@", value: "mail.example.com", priority: 10, ttl: 600 });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ type: "MX", name: "@", value: "mail.example.com", ttl: 600, priority: 10, weight: null, port: null, target: null });
  });

  it("creates an SRV record from priority, weight, port and target, stored as Variant D content", async () => {
    const { data, response } = await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060, target: "sip.example.com" });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ type: "SRV", value: "sip.example.com", priority: 10, weight: 60, port: 5060, target: "sip.example.com" });
    expect(await listD()).toEqual([expect.objectContaining({ id: data!.id, type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", priority: 10, ttl: 3600 })]);
  });

  it("takes value as the SRV target when target is not given", async () => {
    const { data } = await createR({ type: "SRV", name: "_xmpp._tcp", value: "xmpp.example.com", priority: 5, weight: 0, port: 5269 });
    expect(data).toMatchObject({ value: "xmpp.example.com", target: "xmpp.example.com" });
  });

  it("records a dns_record.created event with the Variant D shape of the record", async () => {
    const { data } = await createR({ type: "A", name: "www", value: "203.0.113.10" });
    expect(eventsOf("dns_record.created")).toEqual([
      expect.objectContaining({
        partnerId: "partner_a",
        payload: { domain_id: domainId, data: { id: data!.id, type: "A", name: "www", content: "203.0.113.10", ttl: 3600, priority: null, created_at: NOW, updated_at: NOW } },
      }),
    ]);
  });

  it.each([
    ["value missing", { type: "A", name: "www" }, ["value is required"]],
    ["domain_id missing", { type: "A", name: "www", value: "203.0.113.10", domain_id: undefined }, ["domain_id is required"]],
    ["an unknown field", { type: "A", name: "www", value: "203.0.113.10", content: "203.0.113.10" }, ["content is not an accepted field"]],
    ["ttl as a string", { type: "A", name: "www", value: "203.0.113.10", ttl: "3600" }, ["ttl must be integer"]],
  ])("refuses %s with 400 in the list shape", async (_label, body, errors) => {
    const { error, response } = await createR(body as never);
    expect(response.status).toBe(400);
    expect(error).toEqual({ errors });
    expect(await listD()).toEqual([]);
  });

  it.each([
    ["an MX record without priority", { type: "MX", name: "@", value: "mail.example.com" }, ["priority is required for MX records"]],
    ["a priority on an A record", { type: "A", name: "www", value: "203.0.113.10", priority: 10 }, ["priority is only used by MX and SRV records, not A"]],
    ["a weight on an A record", { type: "A", name: "www", value: "203.0.113.10", weight: 1 }, ["weight is only used by SRV records"]],
    ["a CNAME at the root", { type: "CNAME", name: "@", value: "example.net" }, ["a CNAME record cannot be created for the root (@)"]],
    ["an SRV record without weight and port", { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10 }, ["weight is required for SRV records", "port is required for SRV records"]],
    ["an SRV target different from value", { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 1, port: 1, target: "other.example.com" }, ["target must equal value for SRV records"]],
    ["an SRV port of 65536", { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 1, port: 65536 }, ["port must be <= 65535"]],
    ["ttl 59", { type: "A", name: "www", value: "203.0.113.10", ttl: 59 }, ["ttl must be >= 60"]],
    ["ttl 86401", { type: "A", name: "www", value: "203.0.113.10", ttl: 86401 }, ["ttl must be <= 86400"]],
  ])("refuses %s with 422 in the list shape", async (_label, body, errors) => {
    const { error, response } = await createR(body as never);
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors });
    expect(await listD()).toEqual([]);
  });

  it("names every broken rule of one record in the list, calling the content value", async () => {
    const { error, response } = await createR({ type: "MX", name: "@", value: "not a host", ttl: 60 });
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors: ["value must be a valid domain name for MX records", "priority is required for MX records"] });
  });

  it("refuses an A value that is not an IPv4 address with 422 naming value", async () => {
    const { error, response } = await createR({ type: "A", name: "www", value: "203.0.113" });
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors: ["value must be a valid IPv4 address for A records"] });
  });

  it.each([
    [60, 201],
    [86400, 201],
    [59, 422],
    [86401, 422],
    [0, 422],
    [-60, 422],
  ])("answers ttl %i with %i", async (ttl, status) => {
    const { response } = await createR({ type: "A", name: "www", value: "203.0.113.10", ttl });
    expect(response.status).toBe(status);
  });

  it("refuses an identical record with 409 in the list shape", async () => {
    await createR({ type: "A", name: "www", value: "203.0.113.10" });
    const { error, response } = await createR({ type: "A", name: "www", value: "203.0.113.10", ttl: 60 });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["An identical A record already exists at www"] });
    expect(await listD()).toHaveLength(1);
  });

  it("refuses a CNAME beside another record with 409", async () => {
    await createR({ type: "TXT", name: "www", value: "hello" });
    const { error, response } = await createR({ type: "CNAME", name: "www", value: "example.net" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["A CNAME record cannot share its name www with other records"] });
  });

  it("answers 404 in the list shape for an unknown domain", async () => {
    const { error, response } = await createR({ domain_id: "dom_nope", type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(404);
    expect(error).toEqual({ errors: ["Domain dom_nope not found"] });
  });

  it("answers 403 in the list shape for partner B's domain and creates nothing there", async () => {
    const { error, response } = await createR({ domain_id: otherDomainId, type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenR);
    expect(await otherRecords()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it("answers a body that is not JSON with 415", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/dns_records`, { method: "POST", headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "text/plain" }, body: "A www 203.0.113.10" });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "unsupported_media_type", message: "Request bodies must be application/json" });
  });

  it("answers malformed JSON with 400 in the list shape", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/dns_records`, { method: "POST", headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" }, body: '{"domain_id":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: ["The body is not valid JSON"] });
  });
});

describe("GET /api/v1/dns_records/{id}", () => {
  it("reads a record with 200", async () => {
    const created = (await createR({ type: "TXT", name: "_dmarc", value: "v=DMARC1; p=none", ttl: 300 })).data!;
    const { data, response } = await getR(created.id);
    expect(response.status).toBe(200);
    expect(data).toEqual(created);
  });

  it("reads a record created through Variant D, SRV content split into its parts", async () => {
    const id = await seedD({ type: "SRV", name: "_xmpp._tcp", content: "5 20 5269 xmpp.example.com" });
    const { data } = await getR(id);
    expect(data).toEqual({ id, domain_id: domainId, type: "SRV", name: "_xmpp._tcp", value: "xmpp.example.com", ttl: 300, priority: 5, weight: 20, port: 5269, target: "xmpp.example.com" });
  });

  it("answers 404 in the list shape for an unknown record", async () => {
    const { error, response } = await getR("rec_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ errors: ["DNS record rec_nope not found"] });
  });

  it("answers 403 in the list shape for a record of partner B's domain", async () => {
    const id = await seedOther();
    const { error, response } = await getR(id);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenR);
  });
});

describe("PATCH /api/v1/dns_records/{id}", () => {
  const patch = (id: string, body: components["schemas"]["DnsRecordRUpdate"]) => s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id } }, body });

  it("changes only the fields given", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { data, response } = await patch(created.id, { ttl: 600 });
    expect(response.status).toBe(200);
    expect(data).toEqual({ ...created, ttl: 600 });
  });

  it("changes the value and records a dns_record.updated event with the new updated_at", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    s.clock.advance(60_000);
    const { data } = await patch(created.id, { value: "203.0.113.20" });
    expect(data!.value).toBe("203.0.113.20");
    expect(eventsOf("dns_record.updated")).toEqual([
      expect.objectContaining({ payload: { domain_id: domainId, data: expect.objectContaining({ id: created.id, content: "203.0.113.20", created_at: NOW, updated_at: "2026-11-22T10:01:00Z" }) } }),
    ]);
  });

  it("changes an A record into a CNAME", async () => {
    const created = (await createR({ type: "A", name: "blog", value: "203.0.113.10" })).data!;
    const { data, response } = await patch(created.id, { type: "CNAME", value: "blog.example.net" });
    expect(response.status).toBe(200);
    expect(data).toEqual({ ...created, type: "CNAME", value: "blog.example.net" });
  });

  it("drops the priority to null when an MX record becomes an A record", async () => {
    const created = (await createR({ type: "MX", name: "@", value: "mail.example.com", priority: 10 })).data!;
    const { data, response } = await patch(created.id, { type: "A", value: "203.0.113.10" });
    expect(response.status).toBe(200);
    expect(data).toEqual({ ...created, type: "A", value: "203.0.113.10", priority: null });
    expect((await listD())[0]!.priority).toBeNull();
  });

  it("changes an A record into an SRV record with its parts", async () => {
    const created = (await createR({ type: "A", name: "_sip._tcp", value: "203.0.113.10" })).data!;
    const { data } = await patch(created.id, { type: "SRV", value: "sip.example.com", priority: 1, weight: 2, port: 5060 });
    expect(data).toMatchObject({ type: "SRV", value: "sip.example.com", priority: 1, weight: 2, port: 5060, target: "sip.example.com" });
    expect((await listD())[0]!.content).toBe("1 2 5060 sip.example.com");
  });

  it("moves an SRV record's target with its value", async () => {
    const created = (await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060 })).data!;
    const { data } = await patch(created.id, { value: "sip2.example.com", port: 5061 });
    expect(data).toMatchObject({ value: "sip2.example.com", target: "sip2.example.com", port: 5061, priority: 10, weight: 60 });
    expect((await listD())[0]!.content).toBe("10 60 5061 sip2.example.com");
  });

  it.each([
    ["A to MX without priority", { type: "MX" as const, value: "mail.example.com" }, ["priority is required for MX records"]],
    ["an invalid ttl", { ttl: 30 }, ["ttl must be >= 60"]],
    ["a priority on an A record", { priority: 5 }, ["priority is only used by MX and SRV records, not A"]],
    ["a port on an A record", { port: 80 }, ["port is only used by SRV records"]],
  ])("refuses %s with 422 and changes nothing", async (_label, body, errors) => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { error, response } = await patch(created.id, body);
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors });
    expect((await getR(created.id)).data).toEqual(created);
    expect(eventsOf("dns_record.updated")).toEqual([]);
  });

  it("refuses an invalid value with 422 and keeps the record", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { error, response } = await patch(created.id, { value: "203.0.113" });
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors: ["value must be a valid IPv4 address for A records"] });
    expect((await getR(created.id)).data).toEqual(created);
  });

  it.each([
    ["an empty body", {}, ["body is required"]],
    ["an unknown field", { content: "203.0.113.20" }, ["content is not an accepted field"]],
  ])("refuses %s with 400 in the list shape", async (_label, body, errors) => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { error, response } = await patch(created.id, body as never);
    expect(response.status).toBe(400);
    expect(error).toEqual({ errors });
  });

  it("refuses a rename onto a CNAME's name with 409", async () => {
    await createR({ type: "CNAME", name: "shop", value: "shops.example.net" });
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { error, response } = await patch(created.id, { name: "shop" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["A CNAME record already exists at shop; no other record can share its name"] });
    expect((await getR(created.id)).data!.name).toBe("www");
  });

  it("refuses a change that makes the record identical to another with 409", async () => {
    await createR({ type: "A", name: "www", value: "203.0.113.10" });
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.11" })).data!;
    const { error, response } = await patch(created.id, { value: "203.0.113.10" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["An identical A record already exists at www"] });
  });

  it("accepts a patch that leaves the record as it is (it does not conflict with itself)", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { data, response } = await patch(created.id, { value: "203.0.113.10" });
    expect(response.status).toBe(200);
    expect(data).toEqual(created);
  });

  it("answers 404 in the list shape for an unknown record", async () => {
    const { error, response } = await patch("rec_nope", { ttl: 600 });
    expect(response.status).toBe(404);
    expect(error).toEqual({ errors: ["DNS record rec_nope not found"] });
  });

  it("answers 403 in the list shape for partner B's record and leaves it alone", async () => {
    const id = await seedOther();
    const { error, response } = await patch(id, { ttl: 600 });
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenR);
    expect((await otherRecords())[0]!.ttl).toBe(300);
  });
});

describe("DELETE /api/v1/dns_records/{id}", () => {
  const remove = (id: string) => s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id } } });

  it("deletes with 204 and an empty body; the record is gone", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    const { response } = await remove(created.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await getR(created.id)).response.status).toBe(404);
    expect(await listD()).toEqual([]);
  });

  it("records a dns_record.deleted event", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    await remove(created.id);
    expect(eventsOf("dns_record.deleted")).toEqual([expect.objectContaining({ payload: { domain_id: domainId, data: expect.objectContaining({ id: created.id }) } })]);
  });

  it("deletes a record created through Variant D", async () => {
    const id = await seedD({ type: "MX", name: "@", content: "mail.example.com", priority: 10 });
    expect((await remove(id)).response.status).toBe(204);
    expect(await listD()).toEqual([]);
  });

  it("answers 404 in the list shape for an unknown or already deleted record", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    await remove(created.id);
    const { error, response } = await remove(created.id);
    expect(response.status).toBe(404);
    expect(error).toEqual({ errors: [`DNS record ${created.id} not found`] });
  });

  it("answers 403 in the list shape for partner B's record and keeps it", async () => {
    const id = await seedOther();
    const { error, response } = await remove(id);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenR);
    expect(await otherRecords()).toHaveLength(1);
  });
});

describe("GET /api/v1/domains/{domain_id}/dns", () => {
  it("lists no records of a new domain", async () => {
    const { data, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath());
    expect(response.status).toBe(200);
    expect(data).toEqual({ records: [], total: 0, next_cursor: null });
  });

  it("lists the records ordered by name, then type, then creation, with total", async () => {
    const txt = await seedD({ type: "TXT", name: "www", content: "b" });
    s.clock.advance(1000);
    const a2 = await seedD({ type: "A", name: "www", content: "203.0.113.2" });
    s.clock.advance(1000);
    const root = await seedD({ type: "MX", name: "@", content: "mail.example.com", priority: 10 });
    s.clock.advance(1000);
    const a1 = await seedD({ type: "A", name: "www", content: "203.0.113.1" });
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath());
    expect(data!.records.map((r) => r.id)).toEqual([root, a2, a1, txt]);
    expect(data!.total).toBe(4);
  });

  it("lists only the records of that domain", async () => {
    await seedD({ type: "A", name: "www", content: "203.0.113.1" }, secondDomainId);
    expect(await listD()).toEqual([]);
    expect(await listD(secondDomainId)).toHaveLength(1);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath("dom_nope"));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain", async () => {
    await seedOther();
    const { error, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(otherDomainId));
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns", () => {
  it("creates an A record with 201 and the default ttl of 300", async () => {
    const { data, response } = await createD({ type: "A", name: "@", content: "203.0.113.10" });
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: expect.stringMatching(REC_ID), type: "A", name: "@", content: "203.0.113.10", ttl: 300, priority: null, created_at: NOW, updated_at: NOW });
    expect(await listD()).toEqual([data]);
  });

  it("creates an MX record with its priority", async () => {
    const { data } = await createD({ type: "MX", name: "@", content: "mail.example.com", ttl: 3600, priority: 10 });
    expect(data).toMatchObject({ type: "MX", content: "mail.example.com", ttl: 3600, priority: 10 });
  });

  it("takes an SRV record's priority from its content", async () => {
    const { data } = await createD({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" });
    expect(data).toMatchObject({ type: "SRV", content: "10 60 5060 sip.example.com", priority: 10 });
  });

  it("accepts an SRV priority equal to the first part of content and refuses another with 422", async () => {
    expect((await createD({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", priority: 10 })).response.status).toBe(201);
    const { error, response } = await createD({ type: "SRV", name: "_sip._udp", content: "10 60 5060 sip.example.com", priority: 20 });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "priority must equal the first part of content for SRV records", "priority", "invalid_value"));
  });

  it("accepts two A records on one name and records one dns_record.created event each", async () => {
    await seedD({ type: "A", name: "www", content: "203.0.113.1" });
    await seedD({ type: "A", name: "www", content: "203.0.113.2" });
    expect(await listD()).toHaveLength(2);
    expect(eventsOf("dns_record.created")).toHaveLength(2);
  });

  it("refuses a CNAME at the root with 422", async () => {
    const { error, response } = await createD({ type: "CNAME", name: "@", content: "example.net" });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "a CNAME record cannot be created for the root (@)", "name", "invalid_value"));
  });

  it("refuses an MX record without priority with 422", async () => {
    const { error, response } = await createD({ type: "MX", name: "@", content: "mail.example.com" });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "priority is required for MX records", "priority", "missing_required_field"));
  });

  it("refuses a priority on an A record with 422", async () => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10", priority: 10 });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "priority is only used by MX and SRV records, not A", "priority", "invalid_value"));
  });

  it("refuses an unquoted TXT over 255 characters with 422 instead of splitting it", async () => {
    const { error, response } = await createD({ type: "TXT", name: "@", content: "x".repeat(256) });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "each TXT string must be at most 255 characters; give longer text as several quoted strings", "content", "invalid_format"));
  });

  it.each([
    ["ttl 59", { ttl: 59 }, "ttl", "out_of_range"],
    ["ttl 86401", { ttl: 86401 }, "ttl", "out_of_range"],
    ["ttl 0", { ttl: 0 }, "ttl", "out_of_range"],
    ["a name of 254 characters", { name: NAME_254 }, "name", "too_long"],
    ["a label of 64 characters", { name: `${"a".repeat(64)}.www` }, "name", "invalid_format"],
    ["a label starting with a hyphen", { name: "-www" }, "name", "invalid_format"],
    ["a label ending with a hyphen", { name: "www-" }, "name", "invalid_format"],
    ["an empty label", { name: "a..b" }, "name", "invalid_format"],
    ["a wildcard that is not the leftmost label", { name: "www.*" }, "name", "invalid_format"],
    ["a name with a space", { name: "my host" }, "name", "invalid_format"],
    ["an empty name", { name: "" }, "name", "too_short"],
    ["an A content that is not an address", { content: "203.0.113" }, "content", "invalid_format"],
    ["an A content out of range", { content: "256.0.113.10" }, "content", "invalid_format"],
    ["an IPv6 address in an A record", { content: "2001:db8::1" }, "content", "invalid_format"],
    ["an empty content", { content: "" }, "content", "too_short"],
  ])("refuses an A record with %s with 422 and creates nothing", async (_label, change, field, code) => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10", ...change });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field, code } });
    expect(await listD()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it.each([
    ["ttl 60", { ttl: 60 }],
    ["ttl 86400", { ttl: 86400 }],
    ["a label of 63 characters", { name: `${"a".repeat(63)}.www` }],
    ["the root", { name: "@" }],
    ["a wildcard", { name: "*.apps" }],
    ["an underscore label", { name: "_acme-challenge" }],
  ])("accepts an A record with %s", async (_label, change) => {
    const { data, response } = await createD({ type: "A", name: "www", content: "203.0.113.10", ...change });
    expect(response.status).toBe(201);
    expect(data).toMatchObject(change);
  });

  it.each([
    ["TXT", "x".repeat(255), 201],
    ["TXT", `"${"a".repeat(200)}" "${"b".repeat(200)}"`, 201],
    ["TXT", `"${"a".repeat(255)}" "${"b".repeat(255)}"`, 201],
    ["TXT", "x".repeat(256), 422],
    ["TXT", `"${"a".repeat(256)}" "b"`, 422],
    ["TXT", `"a" "${"b".repeat(256)}"`, 422],
    ["AAAA", "2001:db8::1", 201],
    ["AAAA", "2001:0db8:0000:0000:0000:0000:0000:0001", 201],
    ["AAAA", "::ffff:192.0.2.1", 422],
    ["AAAA", "::192.0.2.1", 422],
    ["AAAA", "2001:db8::g", 422],
    ["AAAA", "2001:db8:::1", 422],
    ["AAAA", "192.0.2.1", 422],
    ["SRV", "0 0 65535 sip.example.com", 201],
    ["SRV", "10 60 5060 .", 201],
    ["SRV", "0 0 65536 sip.example.com", 422],
    ["SRV", "65536 0 5060 sip.example.com", 422],
    ["SRV", "10 60 5060", 422],
    ["SRV", "10 60 5060 sip.example.com extra", 422],
    ["SRV", "-1 60 5060 sip.example.com", 422],
    ["SRV", "10 60 5060 not_a_host", 422],
    ["CNAME", "target.example.net", 201],
    ["CNAME", "not a host", 422],
    ["CNAME", "203.0.113.10.", 201],
    ["NS", "ns1.example.net", 201],
    ["NS", "ns1", 422],
  ])("answers a %s record with content %j with %i", async (type, content, status) => {
    const { response } = await createD({ type: type as DCreate["type"], name: "_sip._tcp", content });
    expect(response.status).toBe(status);
    expect(await listD()).toHaveLength(status === 201 ? 1 : 0);
  });

  it.each([
    [65535, 201],
    [0, 201],
    [65536, 422],
    [-1, 422],
  ])("answers an MX priority of %i with %i", async (priority, status) => {
    const { response } = await createD({ type: "MX", name: "@", content: "mail.example.com", priority });
    expect(response.status).toBe(status);
  });

  it.each([
    ["content missing", { type: "A", name: "www" }, coded(400, "content is required", "content", "missing_required_field")],
    ["type missing", { name: "www", content: "203.0.113.10" }, coded(400, "type is required", "type", "missing_required_field")],
    ["an unknown field", { type: "A", name: "www", content: "203.0.113.10", value: "203.0.113.10" }, coded(400, "value is not an accepted field", "value", "unknown_field")],
    ["ttl as a string", { type: "A", name: "www", content: "203.0.113.10", ttl: "300" }, coded(400, "ttl must be integer", "ttl", "invalid_type")],
  ])("refuses %s with 400", async (_label, body, expected) => {
    const { error, response } = await createD(body as never);
    expect(response.status).toBe(400);
    expect(error).toEqual(expected);
    expect(await listD()).toEqual([]);
  });

  it("refuses an unknown type with 422", async () => {
    const { error, response } = await createD({ type: "PTR", name: "www", content: "host.example.net" } as never);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "type", code: "invalid_value" } });
  });

  it("refuses an identical record with 409 duplicate_record", async () => {
    await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10", ttl: 3600 });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "An identical A record already exists at www", "name", "duplicate_record"));
  });

  it("treats names and host names case-insensitively when looking for duplicates", async () => {
    await seedD({ type: "CNAME", name: "shop", content: "Shops.Example.net" });
    const { error, response } = await createD({ type: "CNAME", name: "SHOP", content: "shops.example.net." });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { code: "duplicate_record" } });
  });

  it("refuses a CNAME beside another record with 409 cname_conflict", async () => {
    await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const { error, response } = await createD({ type: "CNAME", name: "www", content: "example.net" });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "A CNAME record cannot share its name www with other records", "name", "cname_conflict"));
  });

  it("refuses a second CNAME on the same name with 409", async () => {
    await seedD({ type: "CNAME", name: "www", content: "example.net" });
    const { error, response } = await createD({ type: "CNAME", name: "www", content: "example.org" });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { code: "cname_conflict" } });
  });

  it("refuses any record beside a CNAME with 409 and changes nothing", async () => {
    await seedD({ type: "CNAME", name: "www", content: "example.net" });
    const before = await listD();
    const eventCount = s.outbox.events.length;
    const { error, response } = await createD({ type: "TXT", name: "www", content: "hello" });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "A CNAME record already exists at www; no other record can share its name", "name", "cname_conflict"));
    expect(await listD()).toEqual(before);
    expect(s.outbox.events).toHaveLength(eventCount);
  });

  it("checks the CNAME rule per domain", async () => {
    await seedD({ type: "CNAME", name: "www", content: "example.net" }, secondDomainId);
    expect((await createD({ type: "A", name: "www", content: "203.0.113.10" })).response.status).toBe(201);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10" }, "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and creates nothing there", async () => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10" }, otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });

  it("answers malformed JSON with 400 malformed_json", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/domains/${domainId}/dns`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" },
      body: '{"type": "A", "name": "www",',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(coded(400, "The body is not valid JSON", "body", "malformed_json"));
    expect(await listD()).toEqual([]);
  });

  it("answers a body that is not JSON with 415", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/domains/${domainId}/dns`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "text/plain" },
      body: "www 300 IN A 203.0.113.10",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "unsupported_media_type", message: "Request bodies must be application/json" });
  });
});

describe("PUT /api/v1/domains/{domain_id}/dns/{record_id}", () => {
  type DUpdate = components["schemas"]["DnsRecordDUpdate"];
  const put = (record_id: string, body: DUpdate, domain_id = domainId) => s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(record_id, domain_id), body });

  it("changes only the fields given and moves updated_at", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    s.clock.advance(5 * 60_000);
    const { data, response } = await put(created.id, { ttl: 600 });
    expect(response.status).toBe(200);
    expect(data).toEqual({ ...created, ttl: 600, updated_at: "2026-11-22T10:05:00Z" });
    expect(await listD()).toEqual([data]);
  });

  it("changes content and name together", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10", ttl: 900 })).data!;
    const { data } = await put(created.id, { name: "web", content: "203.0.113.20" });
    expect(data).toEqual({ ...created, name: "web", content: "203.0.113.20" });
  });

  it("changes an MX priority", async () => {
    const created = (await createD({ type: "MX", name: "@", content: "mail.example.com", priority: 10 })).data!;
    const { data } = await put(created.id, { priority: 20 });
    expect(data).toEqual({ ...created, priority: 20 });
  });

  it("takes a new SRV priority from new content", async () => {
    const created = (await createD({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" })).data!;
    const { data } = await put(created.id, { content: "20 60 5060 sip.example.com" });
    expect(data).toMatchObject({ content: "20 60 5060 sip.example.com", priority: 20 });
    expect((await getR(created.id)).data).toMatchObject({ priority: 20, weight: 60, port: 5060, target: "sip.example.com" });
  });

  it("records a dns_record.updated event", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { data } = await put(created.id, { content: "203.0.113.20" });
    expect(eventsOf("dns_record.updated")).toEqual([expect.objectContaining({ partnerId: "partner_a", payload: { domain_id: domainId, data } })]);
  });

  it("updates a record created through Variant R, visible through Variant R", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10" })).data!;
    expect((await put(created.id, { content: "203.0.113.99", ttl: 120 })).response.status).toBe(200);
    expect((await getR(created.id)).data).toEqual({ ...created, value: "203.0.113.99", ttl: 120 });
  });

  it("refuses type with 400 unknown_field and keeps the record", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { error, response } = await put(created.id, { type: "CNAME", content: "example.net" } as never);
    expect(response.status).toBe(400);
    expect(error).toEqual(coded(400, "type is not an accepted field", "type", "unknown_field"));
    expect(await listD()).toEqual([created]);
  });

  it("refuses an empty body with 400", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { error, response } = await put(created.id, {});
    expect(response.status).toBe(400);
    expect(error).toEqual(coded(400, "body is required", "body", "missing_required_field"));
  });

  it.each([
    ["an invalid A content", { content: "not-an-ip" }, "content", "invalid_format"],
    ["ttl 59", { ttl: 59 }, "ttl", "out_of_range"],
    ["ttl 86401", { ttl: 86401 }, "ttl", "out_of_range"],
    ["a priority on an A record", { priority: 5 }, "priority", "invalid_value"],
    ["a name of 254 characters", { name: NAME_254 }, "name", "too_long"],
  ])("refuses %s with 422 and changes nothing", async (_label, body, field, code) => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { error, response } = await put(created.id, body);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field, code } });
    expect(await listD()).toEqual([created]);
    expect(eventsOf("dns_record.updated")).toEqual([]);
  });

  it("refuses a rename beside a CNAME with 409", async () => {
    await seedD({ type: "CNAME", name: "shop", content: "shops.example.net" });
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { error, response } = await put(created.id, { name: "shop" });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "A CNAME record already exists at shop; no other record can share its name", "name", "cname_conflict"));
  });

  it("refuses moving a CNAME onto a name that holds records with 409", async () => {
    await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const cname = (await createD({ type: "CNAME", name: "blog", content: "example.net" })).data!;
    const { error, response } = await put(cname.id, { name: "www" });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "A CNAME record cannot share its name www with other records", "name", "cname_conflict"));
  });

  it("answers 404 for an unknown record", async () => {
    const { error, response } = await put("rec_nope", { ttl: 600 });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "DNS record rec_nope not found" });
  });

  it("answers 404 for a record of another domain of the same partner", async () => {
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" }, secondDomainId);
    const { error, response } = await put(id, { ttl: 600 });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: `DNS record ${id} not found` });
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await put("rec_nope", { ttl: 600 }, "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and leaves its record alone", async () => {
    const id = await seedOther();
    const { error, response } = await put(id, { ttl: 600 }, otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect((await otherRecords())[0]!.ttl).toBe(300);
  });
});

describe("DELETE /api/v1/domains/{domain_id}/dns/{record_id}", () => {
  const remove = (record_id: string, domain_id = domainId) => s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(record_id, domain_id));

  it("deletes with 204 and an empty body and records a dns_record.deleted event", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { response } = await remove(created.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await listD()).toEqual([]);
    expect(eventsOf("dns_record.deleted")).toEqual([expect.objectContaining({ payload: { domain_id: domainId, data: created } })]);
  });

  it("deletes a record created through Variant R", async () => {
    const created = (await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 2, port: 3 })).data!;
    expect((await remove(created.id)).response.status).toBe(204);
    expect((await getR(created.id)).response.status).toBe(404);
  });

  it("frees the name for a CNAME once the last record there is deleted", async () => {
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    await remove(id);
    expect((await createD({ type: "CNAME", name: "www", content: "example.net" })).response.status).toBe(201);
  });

  it("answers 404 for a record deleted already", async () => {
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    await remove(id);
    const { error, response } = await remove(id);
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: `DNS record ${id} not found` });
  });

  it("answers 404 for a record of another domain and keeps it", async () => {
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" }, secondDomainId);
    expect((await remove(id)).response.status).toBe(404);
    expect(await listD(secondDomainId)).toHaveLength(1);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await remove("rec_nope", "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and keeps the record", async () => {
    const id = await seedOther();
    const { error, response } = await remove(id, otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toHaveLength(1);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/bulk", () => {
  /**
   * A refused record as echoed back: the input as given, plus the schema's default ttl, which
   * express-openapi-validator writes into the body before the handler sees it (spec: "as given").
   */
  const given = (record: DCreate) => ({ ttl: 300, ...record });
  const bulk = (records: DCreate[], domain_id = domainId) => s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(domain_id), body: { records } });

  it("creates the valid records and lists the refused ones with index, record as given and message", async () => {
    const mx = { type: "MX" as const, name: "@", content: "mail.example.com" };
    const { data, response } = await bulk([{ type: "A", name: "www", content: "203.0.113.10" }, mx, { type: "TXT", name: "@", content: "v=spf1 mx ~all", ttl: 3600 }]);
    expect(response.status).toBe(200);
    expect(data!.created).toEqual([
      { id: expect.stringMatching(REC_ID), type: "A", name: "www", content: "203.0.113.10", ttl: 300, priority: null, created_at: NOW, updated_at: NOW },
      { id: expect.stringMatching(REC_ID), type: "TXT", name: "@", content: "v=spf1 mx ~all", ttl: 3600, priority: null, created_at: NOW, updated_at: NOW },
    ]);
    expect(data!.errors).toEqual([{ index: 1, record: given(mx), error: "priority is required for MX records" }]);
    expect(await listD()).toHaveLength(2);
    expect(eventsOf("dns_record.created")).toHaveLength(2);
  });

  it("checks the records of one request against each other: the second CNAME on a name is refused", async () => {
    const { data } = await bulk([
      { type: "CNAME", name: "www", content: "example.net" },
      { type: "CNAME", name: "www", content: "example.org" },
    ]);
    expect(data!.created).toEqual([expect.objectContaining({ content: "example.net" })]);
    expect(data!.errors).toEqual([{ index: 1, record: given({ type: "CNAME", name: "www", content: "example.org" }), error: "A CNAME record cannot share its name www with other records" }]);
  });

  it("refuses a duplicate within the request and a record beside an existing CNAME", async () => {
    await seedD({ type: "CNAME", name: "shop", content: "shops.example.net" });
    const { data } = await bulk([
      { type: "A", name: "www", content: "203.0.113.10" },
      { type: "A", name: "www", content: "203.0.113.10" },
      { type: "TXT", name: "shop", content: "hello" },
    ]);
    expect(data!.created).toHaveLength(1);
    expect(data!.errors).toEqual([
      { index: 1, record: given({ type: "A", name: "www", content: "203.0.113.10" }), error: "An identical A record already exists at www" },
      { index: 2, record: given({ type: "TXT", name: "shop", content: "hello" }), error: "A CNAME record already exists at shop; no other record can share its name" },
    ]);
  });

  it("answers 200 with nothing created when every record is refused", async () => {
    const { data, response } = await bulk([
      { type: "CNAME", name: "@", content: "example.net" },
      { type: "A", name: "www", content: "203.0.113.10", priority: 1 },
    ]);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      created: [],
      errors: [
        { index: 0, record: given({ type: "CNAME", name: "@", content: "example.net" }), error: "a CNAME record cannot be created for the root (@)" },
        { index: 1, record: given({ type: "A", name: "www", content: "203.0.113.10", priority: 1 }), error: "priority is only used by MX and SRV records, not A" },
      ],
    });
    expect(await listD()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it("accepts 100 records", async () => {
    const records = Array.from({ length: 100 }, (_, i) => ({ type: "A" as const, name: `host${i}`, content: "203.0.113.10" }));
    const { data, response } = await bulk(records);
    expect(response.status).toBe(200);
    expect(data!.created).toHaveLength(100);
    expect(data!.errors).toEqual([]);
  });

  it("refuses 101 records with 422 and creates none", async () => {
    const records = Array.from({ length: 101 }, (_, i) => ({ type: "A" as const, name: `host${i}`, content: "203.0.113.10" }));
    const { error, response } = await bulk(records);
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "records must NOT have more than 100 items", "records", "too_long"));
    expect(await listD()).toEqual([]);
  });

  it("refuses an empty list with 422 (minItems is a body rule) and creates none", async () => {
    const { error, response } = await bulk([]);
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "records must NOT have fewer than 1 items", "records", "too_short"));
  });

  it.each([
    ["records missing", {}, 400, "records", "missing_required_field"],
    ["records not a list", { records: { type: "A" } }, 400, "records", "invalid_type"],
    ["a record with an unknown field", { records: [{ type: "A", name: "www", content: "203.0.113.10" }, { type: "A", name: "web", content: "203.0.113.10", value: "x" }] }, 400, "records.1.value", "unknown_field"],
    ["a record without content", { records: [{ type: "A", name: "www", content: "203.0.113.10" }, { type: "A", name: "web" }] }, 400, "records.1.content", "missing_required_field"],
    ["a record with a ttl out of range", { records: [{ type: "A", name: "www", content: "203.0.113.10" }, { type: "A", name: "web", content: "203.0.113.10", ttl: 10 }] }, 422, "records.1.ttl", "out_of_range"],
    ["an unknown field beside records", { records: [{ type: "A", name: "www", content: "203.0.113.10" }], replace: true }, 400, "replace", "unknown_field"],
  ])("refuses the whole request for %s and creates nothing", async (_label, body, status, field, code) => {
    const { error, response } = await s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(), body: body as never });
    expect(response.status).toBe(status);
    expect(error).toMatchObject({ error: "validation_error", details: { field, code } });
    expect(await listD()).toEqual([]);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await bulk([{ type: "A", name: "www", content: "203.0.113.10" }], "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and creates nothing there", async () => {
    const { error, response } = await bulk([{ type: "A", name: "www", content: "203.0.113.10" }], otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/template", () => {
  type Apply = components["schemas"]["DnsTemplateApply"];
  const apply = (body: Apply, domain_id = domainId) => s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(domain_id), body });
  const brief = (records: DRecord[]) => records.map(({ type, name, content, priority }) => ({ type, name, content, priority }));

  it("applies web-host with 201: A @ to the ip and CNAME www to the domain's name", async () => {
    const { data, response } = await apply({ template_id: "web-host", variables: { ip: "203.0.113.10" } });
    expect(response.status).toBe(201);
    expect(data!.template_id).toBe("web-host");
    expect(brief(data!.records_created)).toEqual([
      { type: "A", name: "@", content: "203.0.113.10", priority: null },
      { type: "CNAME", name: "www", content: "adalovelace.com", priority: null },
    ]);
    expect(data!.records_created.every((r) => REC_ID.test(r.id) && r.created_at === NOW)).toBe(true);
    expect(await listD()).toEqual(data!.records_created);
    expect(eventsOf("dns_record.created")).toHaveLength(2);
  });

  it("applies spf-dmarc with the default policy none and spf_include mx", async () => {
    const { data, response } = await apply({ template_id: "spf-dmarc", variables: { report_email: "dmarc@adalovelace.com" } });
    expect(response.status).toBe(201);
    expect(brief(data!.records_created)).toEqual([
      { type: "TXT", name: "@", content: "v=spf1 mx ~all", priority: null },
      { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none; rua=mailto:dmarc@adalovelace.com", priority: null },
    ]);
  });

  it("applies spf-dmarc with a policy and an spf_include given", async () => {
    const { data } = await apply({ template_id: "spf-dmarc", variables: { report_email: "d@adalovelace.com", policy: "reject", spf_include: "include:_spf.example.net" } });
    expect(brief(data!.records_created).map((r) => r.content)).toEqual(["v=spf1 include:_spf.example.net ~all", "v=DMARC1; p=reject; rua=mailto:d@adalovelace.com"]);
  });

  it("applies google-workspace with the MX priority of the catalogue", async () => {
    const { data } = await apply({ template_id: "google-workspace" });
    expect(brief(data!.records_created)).toEqual([
      { type: "MX", name: "@", content: "smtp.google.com", priority: 1 },
      { type: "TXT", name: "@", content: "v=spf1 include:_spf.google.com ~all", priority: null },
    ]);
  });

  it("applies fastmail with %domain% replaced in the DKIM targets", async () => {
    const { data } = await apply({ template_id: "fastmail" });
    expect(data!.records_created).toHaveLength(6);
    expect(data!.records_created.filter((r) => r.type === "CNAME").map((r) => [r.name, r.content])).toEqual([
      ["fm1._domainkey", "fm1.adalovelace.com.dkim.fmhosted.com"],
      ["fm2._domainkey", "fm2.adalovelace.com.dkim.fmhosted.com"],
      ["fm3._domainkey", "fm3.adalovelace.com.dkim.fmhosted.com"],
    ]);
  });

  it("refuses a missing required variable with 422 and creates nothing", async () => {
    const { error, response } = await apply({ template_id: "web-host" });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "Template web-host requires the variable ip", "variables.ip", "missing_required_field"));
    expect(await listD()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it("refuses an unknown variable with 422 and creates nothing", async () => {
    const { error, response } = await apply({ template_id: "web-host", variables: { ip: "203.0.113.10", colour: "blue" } });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "Template web-host has no variable colour; its variables are: ip", "variables.colour", "invalid_value"));
    expect(await listD()).toEqual([]);
  });

  // Found by test/server/properties.test.ts: `name in specs` saw Object.prototype, so these were ignored and the template applied.
  it.each(["constructor", "toString", "__proto__"])("refuses a variable named like a property of every object (%s) as any unknown one", async (name) => {
    const variables = JSON.parse(`{"ip":"203.0.113.10",${JSON.stringify(name)}:"x"}`) as Record<string, string>;
    const { error, response } = await apply({ template_id: "web-host", variables });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, `Template web-host has no variable ${name}; its variables are: ip`, `variables.${name}`, "invalid_value"));
    expect(await listD()).toEqual([]);
  });

  it.each([
    ["a policy outside its list", { template_id: "spf-dmarc", variables: { report_email: "d@adalovelace.com", policy: "block" } }, "variables.policy"],
    ["an ip that is not an IPv4 address", { template_id: "web-host", variables: { ip: "not-an-ip" } }, "variables.ip"],
    ["an unknown template", { template_id: "cpanel" }, "template_id"],
    ["an empty variable value", { template_id: "web-host", variables: { ip: "" } }, "variables.ip"],
  ])("refuses %s with 422 and creates nothing", async (_label, body, field) => {
    const { error, response } = await apply(body as never);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field } });
    expect(await listD()).toEqual([]);
  });

  it("refuses applying the same template twice with 409 and creates nothing new", async () => {
    await apply({ template_id: "web-host", variables: { ip: "203.0.113.10" } });
    const before = await listD();
    const { error, response } = await apply({ template_id: "web-host", variables: { ip: "203.0.113.10" } });
    expect(response.status).toBe(409);
    expect(error).toEqual(coded(409, "Template web-host: An identical A record already exists at @", "template_id", "duplicate_record"));
    expect(await listD()).toEqual(before);
    expect(eventsOf("dns_record.created")).toHaveLength(2);
  });

  it("refuses with 409 when one record conflicts, without creating the others", async () => {
    await seedD({ type: "A", name: "www", content: "198.51.100.1" });
    const { error, response } = await apply({ template_id: "web-host", variables: { ip: "203.0.113.10" } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { field: "template_id", code: "cname_conflict" } });
    expect(await listD()).toHaveLength(1);
  });

  it("refuses an unknown field with 400", async () => {
    const { error, response } = await apply({ template_id: "web-host", variables: { ip: "203.0.113.10" }, ttl: 60 } as never);
    expect(response.status).toBe(400);
    expect(error).toEqual(coded(400, "ttl is not an accepted field", "ttl", "unknown_field"));
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await apply({ template_id: "google-workspace" }, "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and creates nothing there", async () => {
    const { error, response } = await apply({ template_id: "google-workspace" }, otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });
});

describe("one zone behind both variants", () => {
  it("reads, updates and deletes through Variant D a record created through Variant R, SRV mapped to content", async () => {
    const created = (await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060 })).data!;
    expect(await listD()).toEqual([{ id: created.id, type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", ttl: 3600, priority: 10, created_at: NOW, updated_at: NOW }]);
    const put = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(created.id), body: { content: "5 30 5061 sip2.example.com" } });
    expect(put.data).toMatchObject({ content: "5 30 5061 sip2.example.com", priority: 5 });
    expect((await getR(created.id)).data).toEqual({ ...created, value: "sip2.example.com", target: "sip2.example.com", priority: 5, weight: 30, port: 5061 });
    expect((await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(created.id))).response.status).toBe(204);
    expect((await getR(created.id)).response.status).toBe(404);
  });

  it("reads, updates and deletes through Variant R a record created through Variant D", async () => {
    const id = await seedD({ type: "MX", name: "@", content: "mail.example.com", priority: 10 });
    expect((await getR(id)).data).toEqual({ id, domain_id: domainId, type: "MX", name: "@", value: "mail.example.com", ttl: 300, priority: 10, weight: null, port: null, target: null });
    await s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id } }, body: { priority: 20, value: "mx.example.com" } });
    expect((await listD())[0]).toMatchObject({ id, content: "mx.example.com", priority: 20, ttl: 300 });
    expect((await s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id } } })).response.status).toBe(204);
    expect(await listD()).toEqual([]);
  });

  it("applies the conflict rules across variants", async () => {
    await seedD({ type: "CNAME", name: "www", content: "example.net" });
    const { error, response } = await createR({ type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["A CNAME record already exists at www; no other record can share its name"] });
  });
});

describe("partner B's domain on every DNS route", () => {
  it.each([
    ["GET /api/v1/domains/{domain_id}/dns", (id: string) => s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(otherDomainId)).then((r) => [r, id] as const), forbiddenD],
    ["POST /api/v1/domains/{domain_id}/dns", (id: string) => createD({ type: "A", name: "x", content: "203.0.113.10" }, otherDomainId).then((r) => [r, id] as const), forbiddenD],
    ["PUT /api/v1/domains/{domain_id}/dns/{record_id}", (id: string) => s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(id, otherDomainId), body: { ttl: 600 } }).then((r) => [r, id] as const), forbiddenD],
    ["DELETE /api/v1/domains/{domain_id}/dns/{record_id}", (id: string) => s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(id, otherDomainId)).then((r) => [r, id] as const), forbiddenD],
    ["POST /api/v1/domains/{domain_id}/dns/bulk", (id: string) => s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(otherDomainId), body: { records: [{ type: "A", name: "x", content: "203.0.113.10" }] } }).then((r) => [r, id] as const), forbiddenD],
    ["POST /api/v1/domains/{domain_id}/dns/template", (id: string) => s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(otherDomainId), body: { template_id: "google-workspace" } }).then((r) => [r, id] as const), forbiddenD],
    ["POST /api/v1/dns_records", (id: string) => createR({ domain_id: otherDomainId, type: "A", name: "x", value: "203.0.113.10" }).then((r) => [r, id] as const), forbiddenR],
    ["GET /api/v1/dns_records/{id}", (id: string) => getR(id).then((r) => [r, id] as const), forbiddenR],
    ["PATCH /api/v1/dns_records/{id}", (id: string) => s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id } }, body: { ttl: 600 } }).then((r) => [r, id] as const), forbiddenR],
    ["DELETE /api/v1/dns_records/{id}", (id: string) => s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id } } }).then((r) => [r, id] as const), forbiddenR],
  ])("%s answers partner A with 403 and changes nothing", async (_route, call, expected) => {
    const id = await seedOther();
    const before = await otherRecords();
    const eventCount = s.outbox.events.length;
    const [{ error, response }] = await call(id);
    expect(response.status).toBe(403);
    expect(error).toEqual(expected);
    expect(await otherRecords()).toEqual(before);
    expect(s.outbox.events).toHaveLength(eventCount);
  });
});

describe("the domain's record count and detail", () => {
  const domainsOfU1 = async () => (await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })).data!.domains;
  const countOf = async (id: string) => (await domainsOfU1()).find((d) => d.id === id)!.dns_records_count;

  it("follow records created, refused and deleted through both variants", async () => {
    const a = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const mx = (await createR({ type: "MX", name: "@", value: "mail.example.com", priority: 10 })).data!;
    await createD({ type: "A", name: "www", content: "203.0.113.10" }); // refused: duplicate
    expect(await countOf(domainId)).toBe(2);
    expect(await countOf(secondDomainId)).toBe(0);
    const detail = (await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data!;
    expect(detail.dns_records).toEqual(
      expect.arrayContaining([
        { id: a, type: "A", name: "www", content: "203.0.113.10", ttl: 300, priority: null, created_at: NOW },
        { id: mx.id, type: "MX", name: "@", content: "mail.example.com", ttl: 3600, priority: 10, created_at: NOW },
      ]),
    );
    expect(detail.dns_records).toHaveLength(2);

    await s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id: a } } });
    expect(await countOf(domainId)).toBe(1);
    expect((await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data!.dns_records.map((r) => r.id)).toEqual([mx.id]);
  });

  it("count the records a bulk request and a template created", async () => {
    await s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(), body: { records: [{ type: "A", name: "a", content: "203.0.113.1" }, { type: "MX", name: "@", content: "mail.example.com" }] } });
    await s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(), body: { template_id: "google-workspace" } });
    expect(await countOf(domainId)).toBe(3);
  });
});

describe("the canonical form of a record (one spelling stored, compared and answered, both variants)", () => {
  it.each([
    ["an AAAA address in its long spelling", { type: "AAAA", name: "www", content: "2001:0DB8:0000:0000:0000:0000:0000:0001" }, "2001:db8::1"],
    ["an AAAA address with an IPv4 tail", { type: "AAAA", name: "www", content: "64:ff9b::192.0.2.1" }, "64:ff9b::c000:201"],
    ["a CNAME target in capitals with the root dot", { type: "CNAME", name: "shop", content: "Shops.Example.NET." }, "shops.example.net"],
    ["an MX host with the root dot", { type: "MX", name: "@", content: "Mail.Example.com.", priority: 10 }, "mail.example.com"],
    ["SRV parts separated by several spaces", { type: "SRV", name: "_sip._tcp", content: " 10   60  5060  SIP.example.com. " }, "10 60 5060 sip.example.com"],
    ["a TXT text in one pair of quotes", { type: "TXT", name: "@", content: '"v=spf1 -all"' }, "v=spf1 -all"],
    ["TXT strings separated by several spaces", { type: "TXT", name: "@", content: '"part one"    "part two"' }, '"part one" "part two"'],
  ] as const)("stores and answers %s in canonical form", async (_label, body, canonical) => {
    const { data, response } = await createD(body as DCreate);
    expect(response.status).toBe(201);
    expect(data!.content).toBe(canonical);
    expect((await listD())[0]!.content).toBe(canonical);
    expect(eventsOf("dns_record.created")[0]!.payload).toMatchObject({ data: { content: canonical } });
  });

  it("stores the name in lower case", async () => {
    const { data } = await createD({ type: "A", name: "WWW.Shop", content: "203.0.113.10" });
    expect(data!.name).toBe("www.shop");
  });

  it("answers the canonical value through Variant R", async () => {
    const { data } = await createR({ type: "AAAA", name: "www", value: "2001:db8:0:0:0:0:0:1" });
    expect(data!.value).toBe("2001:db8::1");
  });

  it("stores the canonical form on update too", async () => {
    const created = (await createD({ type: "TXT", name: "@", content: "hello" })).data!;
    const { data } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(created.id), body: { content: '"hello again"' } });
    expect(data!.content).toBe("hello again");
  });

  it.each([
    ["AAAA", "2001:db8::1", "2001:0db8:0000:0000:0000:0000:0000:0001"],
    ["AAAA", "2001:db8::1", "2001:DB8::1"],
    ["TXT", "hello", '"hello"'],
    ["TXT", '"a" "b"', '"a"  "b"'],
    ["SRV", "10 60 5060 sip.example.com", "10  60 5060 sip.example.com"],
    ["SRV", "10 60 5060 sip.example.com", "10 60 5060 SIP.example.com."],
    ["CNAME", "example.net", "EXAMPLE.net."],
  ] as const)("refuses a second spelling of a %s record %j (%j) with 409 duplicate_record", async (type, first, second) => {
    await seedD({ type, name: "_sip._tcp", content: first });
    const { error, response } = await createD({ type, name: "_sip._tcp", content: second });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { code: "duplicate_record" } });
    expect(await listD()).toHaveLength(1);
  });

  it("finds the duplicate across variants: Variant R's quoted TXT value against Variant D's plain content", async () => {
    await seedD({ type: "TXT", name: "@", content: "hello" });
    const { error, response } = await createR({ type: "TXT", name: "@", value: '"hello"' });
    expect(response.status).toBe(409);
    expect(error).toEqual({ errors: ["An identical TXT record already exists at @"] });
  });

  it("keeps TXT texts that differ in case, or in how they are split, as different records", async () => {
    await seedD({ type: "TXT", name: "@", content: "hello" });
    expect((await createD({ type: "TXT", name: "@", content: "Hello" })).response.status).toBe(201);
    expect((await createD({ type: "TXT", name: "@", content: '"hel" "lo"' })).response.status).toBe(201);
  });

  it("takes an SRV target and value that differ only in spelling as the same host in Variant R", async () => {
    const { data, response } = await createR({ type: "SRV", name: "_sip._tcp", value: "SIP.example.com.", priority: 1, weight: 1, port: 5060, target: "sip.example.com" });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ value: "sip.example.com", target: "sip.example.com" });
  });
});

describe("AAAA addresses that are not IPv6 addresses of a host", () => {
  it("refuses a zone index with 422: it names an interface of one machine, not anything in the DNS", async () => {
    const { error, response } = await createD({ type: "AAAA", name: "www", content: "fe80::1%eth0" });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "content must not carry a zone index (%...): it names a network interface of one host and means nothing in the DNS", "content", "invalid_format"));
    expect(await listD()).toEqual([]);
  });

  it.each([
    ["::ffff:192.0.2.1"],
    ["::ffff:c000:201"],
    ["0:0:0:0:0:FFFF:C000:0201"],
    ["::192.0.2.1"],
    ["::c000:201"],
  ])("refuses the IPv4 address 192.0.2.1 written as %j with 422, whatever the spelling", async (content) => {
    const { error, response } = await createD({ type: "AAAA", name: "www", content });
    expect(response.status).toBe(422);
    expect(error).toEqual(coded(422, "content must be an IPv6 address: IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses carry an IPv4 address, which belongs in an A record", "content", "invalid_format"));
  });
});

describe("the full name of a record (RFC 1035: at most 253 characters with the domain)", () => {
  // adalovelace.com has 15 characters: 237 + 1 + 15 = 253.
  const nameOf = (length: number) => ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(length - 192)].join(".");

  it("accepts a name whose full name is 253 characters", async () => {
    const { data, response } = await createD({ type: "A", name: nameOf(237), content: "203.0.113.10" });
    expect(response.status).toBe(201);
    expect(`${data!.name}.adalovelace.com`).toHaveLength(253);
  });

  it("refuses a name whose full name would be 254 characters with 422 too_long, in both variants", async () => {
    const d = await createD({ type: "A", name: nameOf(238), content: "203.0.113.10" });
    expect(d.response.status).toBe(422);
    const message = "name and the domain together must be at most 253 characters (RFC 1035); under adalovelace.com a name has at most 237";
    expect(d.error).toEqual(coded(422, message, "name", "too_long"));
    const r = await createR({ type: "A", name: nameOf(238), value: "203.0.113.10" });
    expect(r.error).toEqual({ errors: [message] });
    expect(await listD()).toEqual([]);
  });

  it("refuses a rename that makes the full name too long", async () => {
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const { error, response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(id), body: { name: NAME_253 } });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field: "name", code: "too_long" } });
    expect((await listD())[0]!.name).toBe("www");
  });
});
