/** DNS records through Variant R's API: /api/v1/dns_records, records with `value`, errors as a list. */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { PARTNER_A_KEY } from "../../../support/test-server.js";
import { NOW, REC_ID, forbiddenR, useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids, createR, getR, listD, seedD, seedOther, otherRecords, eventsOf } = useDnsRecordFixture();

describe("POST /api/v1/dns_records", () => {
  it("creates an A record with 201, the Variant R shape and the default ttl of 3600", async () => {
    const { data, response } = await createR({ type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      id: expect.stringMatching(REC_ID),
      domain_id: ids.domainId,
      type: "A",
      name: "www",
      value: "203.0.113.10",
      ttl: 3600,
      priority: null,
      weight: null,
      port: null,
      target: null,
      comment: null,
      locked: false,
    });
  });

  it("creates an MX record with its priority and the ttl given", async () => {
    const { data, response } = await createR({ type: "MX", name: "@", value: "mail.example.com", priority: 10, ttl: 600 });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      type: "MX",
      name: "@",
      value: "mail.example.com",
      ttl: 600,
      priority: 10,
      weight: null,
      port: null,
      target: null,
    });
  });

  it("creates an SRV record from priority, weight, port and target, stored as Variant D content", async () => {
    const { data, response } = await createR({
      type: "SRV",
      name: "_sip._tcp",
      value: "sip.example.com",
      priority: 10,
      weight: 60,
      port: 5060,
      target: "sip.example.com",
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ type: "SRV", value: "sip.example.com", priority: 10, weight: 60, port: 5060, target: "sip.example.com" });
    expect(await listD()).toEqual([
      expect.objectContaining({
        id: data!.id,
        type: "SRV",
        name: "_sip._tcp",
        content: "10 60 5060 sip.example.com",
        priority: 10,
        ttl: 3600,
      }),
    ]);
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
        payload: {
          domain_id: ids.domainId,
          data: {
            id: data!.id,
            type: "A",
            name: "www",
            content: "203.0.113.10",
            ttl: 3600,
            priority: null,
            comment: null,
            locked: false,
            created_at: NOW,
            updated_at: NOW,
          },
        },
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
    [
      "a priority on an A record",
      { type: "A", name: "www", value: "203.0.113.10", priority: 10 },
      ["priority is only used by MX, SRV, HTTPS and SVCB records, not A"],
    ],
    ["a weight on an A record", { type: "A", name: "www", value: "203.0.113.10", weight: 1 }, ["weight is only used by SRV records"]],
    ["a CNAME at the root", { type: "CNAME", name: "@", value: "example.net" }, ["a CNAME record cannot be created for the root (@)"]],
    [
      "an SRV record without weight and port",
      { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10 },
      ["weight is required for SRV records", "port is required for SRV records"],
    ],
    [
      "an SRV target different from value",
      { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 1, port: 1, target: "other.example.com" },
      ["target must equal value for SRV records"],
    ],
    [
      "an SRV port of 65536",
      { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 1, port: 65536 },
      ["port must be <= 65535"],
    ],
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

  // ttl 59 and 86401: the kit's dns.r-validation-rules.
  it.each([
    [60, 201],
    [86400, 201],
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
    const { error, response } = await createR({ domain_id: ids.otherDomainId, type: "A", name: "www", value: "203.0.113.10" });
    expect(response.status).toBe(403);
    expect(error).toEqual(forbiddenR);
    expect(await otherRecords()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it("answers a body that is not JSON with 415", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/dns_records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "text/plain" },
      body: "A www 203.0.113.10",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "unsupported_media_type", message: "Request bodies must be application/json" });
  });

  it("answers malformed JSON with 400 in the list shape", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/dns_records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" },
      body: '{"domain_id":',
    });
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
    expect(data).toEqual({
      id,
      domain_id: ids.domainId,
      type: "SRV",
      name: "_xmpp._tcp",
      value: "xmpp.example.com",
      ttl: 300,
      priority: 5,
      weight: 20,
      port: 5269,
      target: "xmpp.example.com",
      comment: null,
      locked: false,
    });
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
  const patch = (id: string, body: components["schemas"]["DnsRecordRUpdate"]) =>
    s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id } }, body });

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
      expect.objectContaining({
        payload: {
          domain_id: ids.domainId,
          data: expect.objectContaining({ id: created.id, content: "203.0.113.20", created_at: NOW, updated_at: "2026-11-22T10:01:00Z" }),
        },
      }),
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
    const created = (await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060 }))
      .data!;
    const { data } = await patch(created.id, { value: "sip2.example.com", port: 5061 });
    expect(data).toMatchObject({ value: "sip2.example.com", target: "sip2.example.com", port: 5061, priority: 10, weight: 60 });
    expect((await listD())[0]!.content).toBe("10 60 5061 sip2.example.com");
  });

  it.each([
    ["A to MX without priority", { type: "MX" as const, value: "mail.example.com" }, ["priority is required for MX records"]],
    ["an invalid ttl", { ttl: 30 }, ["ttl must be >= 60"]],
    ["a priority on an A record", { priority: 5 }, ["priority is only used by MX, SRV, HTTPS and SVCB records, not A"]],
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
    expect(eventsOf("dns_record.deleted")).toEqual([
      expect.objectContaining({ payload: { domain_id: ids.domainId, data: expect.objectContaining({ id: created.id }) } }),
    ]);
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
