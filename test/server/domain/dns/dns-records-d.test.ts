/** DNS records through Variant D's API: /api/v1/domains/{domain_id}/dns*, records with `content`, coded errors. */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { PARTNER_A_KEY } from "../../../support/test-server.js";
import { NOW, REC_ID, forbiddenD, coded, NAME_254, type DCreate, type DRecord, useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids, domainPath, recordPath, createD, createR, getR, listD, seedD, seedOther, otherRecords, eventsOf } = useDnsRecordFixture();

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
    await seedD({ type: "A", name: "www", content: "203.0.113.1" }, ids.secondDomainId);
    expect(await listD()).toEqual([]);
    expect(await listD(ids.secondDomainId)).toHaveLength(1);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath("dom_nope"));
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain", async () => {
    await seedOther();
    const { error, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(ids.otherDomainId));
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns", () => {
  it("creates an A record with 201 and the default ttl of 300", async () => {
    const { data, response } = await createD({ type: "A", name: "@", content: "203.0.113.10" });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      id: expect.stringMatching(REC_ID),
      type: "A",
      name: "@",
      content: "203.0.113.10",
      ttl: 300,
      priority: null,
      comment: null,
      locked: false,
      created_at: NOW,
      updated_at: NOW,
    });
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
    expect((await createD({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", priority: 10 })).response.status).toBe(
      201,
    );
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
    expect(error).toEqual(coded(422, "priority is only used by MX, SRV, HTTPS and SVCB records, not A", "priority", "invalid_value"));
  });

  it("refuses an unquoted TXT over 255 characters with 422 instead of splitting it", async () => {
    const { error, response } = await createD({ type: "TXT", name: "@", content: "x".repeat(256) });
    expect(response.status).toBe(422);
    expect(error).toEqual(
      coded(422, "each TXT string must be at most 255 characters; give longer text as several quoted strings", "content", "invalid_format"),
    );
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

  // The contents refused here and not listed: the kit's dns.content-by-type and dns.txt-strings.
  it.each([
    ["TXT", "x".repeat(255), 201],
    ["TXT", `"${"a".repeat(200)}" "${"b".repeat(200)}"`, 201],
    ["TXT", `"${"a".repeat(255)}" "${"b".repeat(255)}"`, 201],
    ["AAAA", "2001:db8::1", 201],
    ["AAAA", "2001:0db8:0000:0000:0000:0000:0000:0001", 201],
    ["AAAA", "2001:db8:::1", 422],
    ["SRV", "0 0 65535 sip.example.com", 201],
    ["SRV", "10 60 5060 .", 201],
    ["SRV", "65536 0 5060 sip.example.com", 422],
    ["CNAME", "target.example.net", 201],
    ["CNAME", "203.0.113.10.", 201],
    ["NS", "ns1.example.net", 201],
  ])("answers a %s record with content %j with %i", async (type, content, status) => {
    const { response } = await createD({ type: type as DCreate["type"], name: "_sip._tcp", content });
    expect(response.status).toBe(status);
    expect(await listD()).toHaveLength(status === 201 ? 1 : 0);
  });

  // Priorities -1 and 65536: the kit's dns.mx-and-srv-priority.
  it.each([
    [65535, 201],
    [0, 201],
  ])("answers an MX priority of %i with %i", async (priority, status) => {
    const { response } = await createD({ type: "MX", name: "@", content: "mail.example.com", priority });
    expect(response.status).toBe(status);
  });

  it.each([
    ["content missing", { type: "A", name: "www" }, coded(400, "content is required", "content", "missing_required_field")],
    ["type missing", { name: "www", content: "203.0.113.10" }, coded(400, "type is required", "type", "missing_required_field")],
    [
      "an unknown field",
      { type: "A", name: "www", content: "203.0.113.10", value: "203.0.113.10" },
      coded(400, "value is not an accepted field", "value", "unknown_field"),
    ],
    [
      "ttl as a string",
      { type: "A", name: "www", content: "203.0.113.10", ttl: "300" },
      coded(400, "ttl must be integer", "ttl", "invalid_type"),
    ],
  ])("refuses %s with 400", async (_label, body, expected) => {
    const { error, response } = await createD(body as never);
    expect(response.status).toBe(400);
    expect(error).toEqual(expected);
    expect(await listD()).toEqual([]);
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
    await seedD({ type: "CNAME", name: "www", content: "example.net" }, ids.secondDomainId);
    expect((await createD({ type: "A", name: "www", content: "203.0.113.10" })).response.status).toBe(201);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10" }, "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and creates nothing there", async () => {
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10" }, ids.otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });

  it("answers malformed JSON with 400 malformed_json", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/domains/${ids.domainId}/dns`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" },
      body: '{"type": "A", "name": "www",',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(coded(400, "The body is not valid JSON", "body", "malformed_json"));
    expect(await listD()).toEqual([]);
  });

  it("answers a body that is not JSON with 415", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/domains/${ids.domainId}/dns`, {
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
  const put = (record_id: string, body: DUpdate, domain_id = ids.domainId) =>
    s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(record_id, domain_id), body });

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
    expect(eventsOf("dns_record.updated")).toEqual([
      expect.objectContaining({ partnerId: "partner_a", payload: { domain_id: ids.domainId, data } }),
    ]);
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
    expect(error).toEqual(
      coded(409, "A CNAME record already exists at shop; no other record can share its name", "name", "cname_conflict"),
    );
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
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" }, ids.secondDomainId);
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
    const { error, response } = await put(id, { ttl: 600 }, ids.otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect((await otherRecords())[0]!.ttl).toBe(300);
  });
});

describe("DELETE /api/v1/domains/{domain_id}/dns/{record_id}", () => {
  const remove = (record_id: string, domain_id = ids.domainId) =>
    s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(record_id, domain_id));

  it("deletes with 204 and an empty body and records a dns_record.deleted event", async () => {
    const created = (await createD({ type: "A", name: "www", content: "203.0.113.10" })).data!;
    const { response } = await remove(created.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await listD()).toEqual([]);
    expect(eventsOf("dns_record.deleted")).toEqual([expect.objectContaining({ payload: { domain_id: ids.domainId, data: created } })]);
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
    const id = await seedD({ type: "A", name: "www", content: "203.0.113.10" }, ids.secondDomainId);
    expect((await remove(id)).response.status).toBe(404);
    expect(await listD(ids.secondDomainId)).toHaveLength(1);
  });

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await remove("rec_nope", "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and keeps the record", async () => {
    const id = await seedOther();
    const { error, response } = await remove(id, ids.otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toHaveLength(1);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/bulk", () => {
  /** A refused record as echoed back: the input as given, without the defaults the service applies (server/api/validator/request-as-given.ts). */
  const given = (record: DCreate) => ({ ...record });
  const bulk = (records: DCreate[], domain_id = ids.domainId) =>
    s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", { ...domainPath(domain_id), body: { records } });

  it("creates the valid records and lists the refused ones with index, record as given and message", async () => {
    const mx = { type: "MX" as const, name: "@", content: "mail.example.com" };
    const { data, response } = await bulk([
      { type: "A", name: "www", content: "203.0.113.10" },
      mx,
      { type: "TXT", name: "@", content: "v=spf1 mx ~all", ttl: 3600 },
    ]);
    expect(response.status).toBe(200);
    expect(data!.created).toEqual([
      {
        id: expect.stringMatching(REC_ID),
        type: "A",
        name: "www",
        content: "203.0.113.10",
        ttl: 300,
        priority: null,
        comment: null,
        locked: false,
        created_at: NOW,
        updated_at: NOW,
      },
      {
        id: expect.stringMatching(REC_ID),
        type: "TXT",
        name: "@",
        content: "v=spf1 mx ~all",
        ttl: 3600,
        priority: null,
        comment: null,
        locked: false,
        created_at: NOW,
        updated_at: NOW,
      },
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
    expect(data!.errors).toEqual([
      {
        index: 1,
        record: given({ type: "CNAME", name: "www", content: "example.org" }),
        error: "A CNAME record cannot share its name www with other records",
      },
    ]);
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
      {
        index: 1,
        record: given({ type: "A", name: "www", content: "203.0.113.10" }),
        error: "An identical A record already exists at www",
      },
      {
        index: 2,
        record: given({ type: "TXT", name: "shop", content: "hello" }),
        error: "A CNAME record already exists at shop; no other record can share its name",
      },
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
        {
          index: 0,
          record: given({ type: "CNAME", name: "@", content: "example.net" }),
          error: "a CNAME record cannot be created for the root (@)",
        },
        {
          index: 1,
          record: given({ type: "A", name: "www", content: "203.0.113.10", priority: 1 }),
          error: "priority is only used by MX, SRV, HTTPS and SVCB records, not A",
        },
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

  it("answers 404 for an unknown domain", async () => {
    const { error, response } = await bulk([{ type: "A", name: "www", content: "203.0.113.10" }], "dom_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Domain dom_nope not found" });
  });

  it("answers 403 for partner B's domain and creates nothing there", async () => {
    const { error, response } = await bulk([{ type: "A", name: "www", content: "203.0.113.10" }], ids.otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });
});

describe("POST /api/v1/domains/{domain_id}/dns/template", () => {
  type Apply = components["schemas"]["DnsTemplateApply"];
  const apply = (body: Apply, domain_id = ids.domainId) =>
    s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(domain_id), body });
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
    const { data } = await apply({
      template_id: "spf-dmarc",
      variables: { report_email: "d@adalovelace.com", policy: "reject", spf_include: "include:_spf.example.net" },
    });
    expect(brief(data!.records_created).map((r) => r.content)).toEqual([
      "v=spf1 include:_spf.example.net ~all",
      "v=DMARC1; p=reject; rua=mailto:d@adalovelace.com",
    ]);
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
    expect(error).toEqual(
      coded(422, "Template web-host has no variable colour; its variables are: ip", "variables.colour", "invalid_value"),
    );
    expect(await listD()).toEqual([]);
  });

  // Found by test/server/properties.test.ts: `name in specs` saw Object.prototype, so these were ignored and the template applied.
  it.each(["constructor", "toString", "__proto__"])(
    "refuses a variable named like a property of every object (%s) as any unknown one",
    async (name) => {
      const variables = JSON.parse(`{"ip":"203.0.113.10",${JSON.stringify(name)}:"x"}`) as Record<string, string>;
      const { error, response } = await apply({ template_id: "web-host", variables });
      expect(response.status).toBe(422);
      expect(error).toEqual(
        coded(422, `Template web-host has no variable ${name}; its variables are: ip`, `variables.${name}`, "invalid_value"),
      );
      expect(await listD()).toEqual([]);
    },
  );

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
    const { error, response } = await apply({ template_id: "google-workspace" }, ids.otherDomainId);
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenD);
    expect(await otherRecords()).toEqual([]);
  });
});
