/** DNS records behind both variants: one zone, partner B's domain on every route, the domain's count and detail, one canonical spelling, full names. */
import { describe, expect, it } from "vitest";
import { NOW, forbiddenD, forbiddenR, coded, NAME_253, type DCreate, useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids, domainPath, recordPath, createD, createR, getR, listD, seedD, seedOther, otherRecords, eventsOf } = useDnsRecordFixture();

describe("one zone behind both variants", () => {
  it("reads, updates and deletes through Variant D a record created through Variant R, SRV mapped to content", async () => {
    const created = (await createR({ type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060 }))
      .data!;
    expect(await listD()).toEqual([
      {
        id: created.id,
        type: "SRV",
        name: "_sip._tcp",
        content: "10 60 5060 sip.example.com",
        ttl: 3600,
        priority: 10,
        comment: null,
        locked: false,
        created_at: NOW,
        updated_at: NOW,
      },
    ]);
    const put = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(created.id),
      body: { content: "5 30 5061 sip2.example.com" },
    });
    expect(put.data).toMatchObject({ content: "5 30 5061 sip2.example.com", priority: 5 });
    expect((await getR(created.id)).data).toEqual({
      ...created,
      value: "sip2.example.com",
      target: "sip2.example.com",
      priority: 5,
      weight: 30,
      port: 5061,
    });
    expect((await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(created.id))).response.status).toBe(204);
    expect((await getR(created.id)).response.status).toBe(404);
  });

  it("reads, updates and deletes through Variant R a record created through Variant D", async () => {
    const id = await seedD({ type: "MX", name: "@", content: "mail.example.com", priority: 10 });
    expect((await getR(id)).data).toEqual({
      id,
      domain_id: ids.domainId,
      type: "MX",
      name: "@",
      value: "mail.example.com",
      ttl: 300,
      priority: 10,
      weight: null,
      port: null,
      target: null,
      comment: null,
      locked: false,
    });
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
    [
      "GET /api/v1/domains/{domain_id}/dns",
      (id: string) => s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(ids.otherDomainId)).then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "POST /api/v1/domains/{domain_id}/dns",
      (id: string) => createD({ type: "A", name: "x", content: "203.0.113.10" }, ids.otherDomainId).then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "PUT /api/v1/domains/{domain_id}/dns/{record_id}",
      (id: string) =>
        s.api
          .PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(id, ids.otherDomainId), body: { ttl: 600 } })
          .then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "DELETE /api/v1/domains/{domain_id}/dns/{record_id}",
      (id: string) =>
        s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(id, ids.otherDomainId)).then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "POST /api/v1/domains/{domain_id}/dns/bulk",
      (id: string) =>
        s.api
          .POST("/api/v1/domains/{domain_id}/dns/bulk", {
            ...domainPath(ids.otherDomainId),
            body: { records: [{ type: "A", name: "x", content: "203.0.113.10" }] },
          })
          .then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "POST /api/v1/domains/{domain_id}/dns/template",
      (id: string) =>
        s.api
          .POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(ids.otherDomainId), body: { template_id: "google-workspace" } })
          .then((r) => [r, id] as const),
      forbiddenD,
    ],
    [
      "POST /api/v1/dns_records",
      (id: string) => createR({ domain_id: ids.otherDomainId, type: "A", name: "x", value: "203.0.113.10" }).then((r) => [r, id] as const),
      forbiddenR,
    ],
    ["GET /api/v1/dns_records/{id}", (id: string) => getR(id).then((r) => [r, id] as const), forbiddenR],
    [
      "PATCH /api/v1/dns_records/{id}",
      (id: string) =>
        s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id } }, body: { ttl: 600 } }).then((r) => [r, id] as const),
      forbiddenR,
    ],
    [
      "DELETE /api/v1/dns_records/{id}",
      (id: string) => s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id } } }).then((r) => [r, id] as const),
      forbiddenR,
    ],
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
  const domainsOfU1 = async () =>
    (await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })).data!.domains;
  const countOf = async (id: string) => (await domainsOfU1()).find((d) => d.id === id)!.dns_records_count;

  it("follow records created, refused and deleted through both variants", async () => {
    const a = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const mx = (await createR({ type: "MX", name: "@", value: "mail.example.com", priority: 10 })).data!;
    await createD({ type: "A", name: "www", content: "203.0.113.10" }); // refused: duplicate
    expect(await countOf(ids.domainId)).toBe(2);
    expect(await countOf(ids.secondDomainId)).toBe(0);
    const detail = (await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data!;
    expect(detail.dns_records).toEqual(
      expect.arrayContaining([
        { id: a, type: "A", name: "www", content: "203.0.113.10", ttl: 300, priority: null, comment: null, locked: false, created_at: NOW },
        {
          id: mx.id,
          type: "MX",
          name: "@",
          content: "mail.example.com",
          ttl: 3600,
          priority: 10,
          comment: null,
          locked: false,
          created_at: NOW,
        },
      ]),
    );
    expect(detail.dns_records).toHaveLength(2);

    await s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id: a } } });
    expect(await countOf(ids.domainId)).toBe(1);
    expect((await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data!.dns_records.map((r) => r.id)).toEqual([mx.id]);
  });

  it("count the records a bulk request and a template created", async () => {
    await s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", {
      ...domainPath(),
      body: {
        records: [
          { type: "A", name: "a", content: "203.0.113.1" },
          { type: "MX", name: "@", content: "mail.example.com" },
        ],
      },
    });
    await s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(), body: { template_id: "google-workspace" } });
    expect(await countOf(ids.domainId)).toBe(3);
  });
});

describe("the canonical form of a record (one spelling stored, compared and answered, both variants)", () => {
  it.each([
    [
      "an AAAA address in its long spelling",
      { type: "AAAA", name: "www", content: "2001:0DB8:0000:0000:0000:0000:0000:0001" },
      "2001:db8::1",
    ],
    ["an AAAA address with an IPv4 tail", { type: "AAAA", name: "www", content: "64:ff9b::192.0.2.1" }, "64:ff9b::c000:201"],
    ["a CNAME target in capitals with the root dot", { type: "CNAME", name: "shop", content: "Shops.Example.NET." }, "shops.example.net"],
    ["an MX host with the root dot", { type: "MX", name: "@", content: "Mail.Example.com.", priority: 10 }, "mail.example.com"],
    [
      "SRV parts separated by several spaces",
      { type: "SRV", name: "_sip._tcp", content: " 10   60  5060  SIP.example.com. " },
      "10 60 5060 sip.example.com",
    ],
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
    const { data } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(created.id),
      body: { content: '"hello again"' },
    });
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
    const { data, response } = await createR({
      type: "SRV",
      name: "_sip._tcp",
      value: "SIP.example.com.",
      priority: 1,
      weight: 1,
      port: 5060,
      target: "sip.example.com",
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ value: "sip.example.com", target: "sip.example.com" });
  });
});

describe("AAAA addresses that are not IPv6 addresses of a host", () => {
  it("refuses a zone index with 422: it names an interface of one machine, not anything in the DNS", async () => {
    const { error, response } = await createD({ type: "AAAA", name: "www", content: "fe80::1%eth0" });
    expect(response.status).toBe(422);
    expect(error).toEqual(
      coded(
        422,
        "content must not carry a zone index (%...): it names a network interface of one host and means nothing in the DNS",
        "content",
        "invalid_format",
      ),
    );
    expect(await listD()).toEqual([]);
  });

  it.each([["::ffff:192.0.2.1"], ["::ffff:c000:201"], ["0:0:0:0:0:FFFF:C000:0201"], ["::192.0.2.1"], ["::c000:201"]])(
    "refuses the IPv4 address 192.0.2.1 written as %j with 422, whatever the spelling",
    async (content) => {
      const { error, response } = await createD({ type: "AAAA", name: "www", content });
      expect(response.status).toBe(422);
      expect(error).toEqual(
        coded(
          422,
          "content must be an IPv6 address: IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses carry an IPv4 address, which belongs in an A record",
          "content",
          "invalid_format",
        ),
      );
    },
  );
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
    const { error, response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(id),
      body: { name: NAME_253 },
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field: "name", code: "too_long" } });
    expect((await listD())[0]!.name).toBe("www");
  });
});
