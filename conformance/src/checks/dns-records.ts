/**
 * DNS records of both variants, one record at a time: what a create stores and answers, every
 * validation rule with its exact status and code, the zone rules (a CNAME owns its name, no record
 * twice, one SPF and one DMARC per name), updates, deletes, the list's order and filters.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { sandboxNow } from "./domains-support.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import {
  brief,
  createD,
  createR,
  expectListShape,
  expectZoneUnchanged,
  ownDomain,
  seedD,
  VARIANT_D,
  VARIANT_R,
  zoneOf,
  type RecordD,
} from "./dns-records-support.js";

const NEEDS = ["state", "sandbox"] as const;
const needs = [...NEEDS];

/** A relative name of exactly `length` characters: labels of 50 letters joined by dots. */
function nameOfLength(length: number): string {
  const labels: string[] = [];
  let left = length;
  while (left > 51) {
    labels.push("a".repeat(50));
    left -= 51;
  }
  labels.push("b".repeat(left));
  return labels.join(".");
}

const putD = (context: CheckContext, domainId: string, recordId: string, body: Record<string, unknown>) =>
  context.api.call("updateDomainDnsRecord", { path: { domain_id: domainId, record_id: recordId }, body });
const deleteD = (context: CheckContext, domainId: string, recordId: string) =>
  context.api.call("deleteDomainDnsRecord", { path: { domain_id: domainId, record_id: recordId } });

/** Each refused create must answer 422 validation_error with this field and code, and create nothing. */
async function expectRefusedD(
  context: CheckContext,
  domainId: string,
  cases: Array<[why: string, body: Record<string, unknown>, field: string, code: string]>,
): Promise<void> {
  const before = await zoneOf(context, domainId);
  for (const [why, body, field, code] of cases)
    expectCoded(await createD(context, domainId, body), 422, "validation_error", field, code, why);
  await expectZoneUnchanged(context, domainId, before, "refused creates must create nothing");
}

/** Each accepted create must answer 201 with `expected` stored (canonical form), read back in the list. */
async function expectAcceptedD(
  context: CheckContext,
  domainId: string,
  cases: Array<[why: string, body: Record<string, unknown>, expected?: Partial<RecordD>]>,
): Promise<void> {
  for (const [why, body, expected] of cases) {
    const result = await createD(context, domainId, body);
    expectConforming(result);
    expectStatus(result, 201, why);
    // A priority given is checked by what the check expects (SRV answers its content's).
    const { priority: _given, ...rest } = body;
    const shown = { ...rest, ...expected };
    expect({ why, record: result.body }).toMatchObject({ why, record: shown });
    const listed = (await zoneOf(context, domainId)).find((record) => record.id === result.body.id);
    expect({ why, listed }).toEqual({ why, listed: result.body });
  }
}

export default defineChecks([
  {
    id: "dns.create-stores-and-lists-the-record",
    title:
      "A Variant D create answers 201 with the record as stored (ttl 300 by default, priority null); the list shows it identically and the domain detail embeds it",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "crd");
      // Timestamps are on the partner's clock: the sandbox's, which other checks may have moved.
      const before = context.api.has("getSandboxClock") ? (await sandboxNow(context)).getTime() : Date.now();
      const result = await createD(context, domain.id, { type: "A", name: "www", content: "192.0.2.10" });
      expectConforming(result);
      expectStatus(result, 201);
      expect(result.body).toEqual({
        id: expect.any(String),
        type: "A",
        name: "www",
        content: "192.0.2.10",
        ttl: 300,
        priority: null,
        comment: null,
        locked: false,
        created_at: expect.any(String),
        updated_at: result.body.created_at,
      });
      expect(Math.abs(Date.parse(result.body.created_at) - before)).toBeLessThan(24 * 3600_000);
      const explicit = await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", ttl: 3600, priority: 10 });
      expect(explicit).toMatchObject({ type: "MX", name: "@", content: "mail.example.com", ttl: 3600, priority: 10 });
      const zone = await zoneOf(context, domain.id);
      expect(zone.map((r) => r.id).sort()).toEqual([result.body.id, explicit.id].sort());
      expect(zone.find((r) => r.id === result.body.id)).toEqual(result.body);
      expect(zone.find((r) => r.id === explicit.id)).toEqual(explicit);
      const list = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id } });
      expect(list.body.total).toBe(2);
      const detail = await context.api.call("getDomain", { path: { domain_id: domain.id } });
      expectStatus(detail, 200);
      if (Array.isArray(detail.body.dns_records)) {
        const embedded = detail.body.dns_records.find((r: RecordD) => r.id === result.body.id);
        const { updated_at: _updated, priority: _priority, ...summary } = result.body;
        expect({ embedded }).toMatchObject({ embedded: summary });
        expect(detail.body.dns_records).toHaveLength(2);
      }
    },
  },
  {
    id: "dns.ttl-bounds",
    title: "ttl 60 and 86400 are accepted; 59, 86401 and 0 are refused with 422 validation_error (ttl, out_of_range), on create and update",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "ttl");
      await expectAcceptedD(context, domain.id, [
        ["ttl 60", { type: "A", name: "ttl-min", content: "192.0.2.1", ttl: 60 }],
        ["ttl 86400", { type: "A", name: "ttl-max", content: "192.0.2.1", ttl: 86400 }],
      ]);
      await expectRefusedD(context, domain.id, [
        ["ttl 59", { type: "A", name: "ttl-low", content: "192.0.2.1", ttl: 59 }, "ttl", "out_of_range"],
        ["ttl 86401", { type: "A", name: "ttl-high", content: "192.0.2.1", ttl: 86401 }, "ttl", "out_of_range"],
        ["ttl 0", { type: "A", name: "ttl-zero", content: "192.0.2.1", ttl: 0 }, "ttl", "out_of_range"],
      ]);
      const record = (await zoneOf(context, domain.id))[0]!;
      const before = await zoneOf(context, domain.id);
      for (const ttl of [59, 86401])
        expectCoded(await putD(context, domain.id, record.id, { ttl }), 422, "validation_error", "ttl", "out_of_range", `PUT ttl ${ttl}`);
      await expectZoneUnchanged(context, domain.id, before, "a refused update changes nothing");
    },
  },
  {
    id: "dns.content-by-type",
    title:
      "content must have its type's form (A IPv4, AAAA IPv6, CNAME/MX/NS host names, SRV four parts); otherwise 422 validation_error (content, invalid_format)",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "cnt");
      await expectAcceptedD(context, domain.id, [
        ["A", { type: "A", name: "a", content: "192.0.2.1" }],
        ["AAAA compressed", { type: "AAAA", name: "a", content: "2001:db8::1" }],
        ["AAAA the loopback address (inside ::/96, not IPv4-compatible)", { type: "AAAA", name: "loop", content: "::1" }],
        ["AAAA the unspecified address (inside ::/96, not IPv4-compatible)", { type: "AAAA", name: "none", content: "::" }],
        ["CNAME", { type: "CNAME", name: "alias", content: "target.example.net" }],
        ["MX", { type: "MX", name: "a", content: "mail.example.net", priority: 5 }],
        ["NS", { type: "NS", name: "sub", content: "ns1.example.net" }],
        ["SRV", { type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" }, { priority: 10 }],
        ["SRV with the root as target", { type: "SRV", name: "_imap._tcp", content: "0 0 0 ." }, { priority: 0 }],
        ["SRV with bounds", { type: "SRV", name: "_xmpp._tcp", content: "65535 65535 65535 xmpp.example.com" }, { priority: 65535 }],
      ]);
      const bad = (why: string, type: string, content: string): [string, Record<string, unknown>, string, string] => [
        why,
        { type, name: "bad", content, ...(type === "MX" ? { priority: 10 } : {}) },
        "content",
        "invalid_format",
      ];
      await expectRefusedD(context, domain.id, [
        bad("A with three parts", "A", "192.0.2"),
        bad("A out of range", "A", "256.0.2.1"),
        bad("A with a leading zero", "A", "192.0.2.01"),
        bad("A holding an IPv6 address", "A", "2001:db8::1"),
        bad("AAAA not hex", "AAAA", "2001:db8::g"),
        bad("AAAA with two ::", "AAAA", "2001:db8::1::2"),
        bad("AAAA holding an IPv4 address", "AAAA", "192.0.2.1"),
        bad("AAAA IPv4-mapped", "AAAA", "::ffff:192.0.2.1"),
        bad("AAAA IPv4-mapped in hex", "AAAA", "::ffff:c000:201"),
        bad("AAAA IPv4-compatible", "AAAA", "::c000:201"),
        bad("AAAA IPv4-compatible dotted", "AAAA", "::192.0.2.1"),
        bad("AAAA with a zone index", "AAAA", "fe80::1%eth0"),
        bad("CNAME not a host name", "CNAME", "not a host"),
        bad("CNAME of one label", "CNAME", "localhost"),
        bad("MX not a host name", "MX", "mail_server.example.com"),
        bad("NS of one label", "NS", "ns1"),
        bad("SRV with three parts", "SRV", "10 60 5060"),
        bad("SRV with five parts", "SRV", "10 60 5060 sip.example.com extra"),
        bad("SRV port past 65535", "SRV", "10 60 65536 sip.example.com"),
        bad("SRV negative priority", "SRV", "-1 60 5060 sip.example.com"),
        bad("SRV target not a host", "SRV", "10 60 5060 not_a_host"),
        bad("SRV priority in exponent form", "SRV", "1e3 60 5060 sip.example.com"),
        bad("SRV port in hexadecimal", "SRV", "10 60 0x13c4 sip.example.com"),
        bad("MX target with a label IDNA refuses", "MX", "mail.xn--e28h.example.com"),
      ]);
    },
  },
  {
    id: "dns.canonical-form",
    title:
      "A record is stored and answered in canonical form: name lower case, AAAA compressed, host names lower case without the root's dot, TXT unquoted when one string",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "can");
      await expectAcceptedD(context, domain.id, [
        ["name in upper case", { type: "A", name: "WWW", content: "192.0.2.1" }, { name: "www" }],
        ["AAAA written in full", { type: "AAAA", name: "v6", content: "2001:0DB8:0:0:0:0:0:1" }, { content: "2001:db8::1" }],
        ["AAAA with an IPv4 tail", { type: "AAAA", name: "nat64", content: "64:ff9b::192.0.2.1" }, { content: "64:ff9b::c000:201" }],
        ["CNAME with the root's dot", { type: "CNAME", name: "alias", content: "Target.Example.NET." }, { content: "target.example.net" }],
        [
          "MX target ending in an IDNA label and the root's dot",
          { type: "MX", name: "idn", content: "mail.xn--bcher-kva.", priority: 10 },
          { content: "mail.xn--bcher-kva" },
        ],
        [
          "SRV with extra spaces",
          { type: "SRV", name: "_sip._tcp", content: "10  60 5060 SIP.example.com." },
          { content: "10 60 5060 sip.example.com", priority: 10 },
        ],
        ["TXT quoted once", { type: "TXT", name: "t1", content: '"hello"' }, { content: "hello" }],
        ["TXT of two strings", { type: "TXT", name: "t2", content: '"a"   "b"' }, { content: '"a" "b"' }],
        ["TXT with inner quotes", { type: "TXT", name: "t3", content: 'say "hi"' }, { content: 'say "hi"' }],
      ]);
      // Two spellings of one record are one record.
      expectCoded(
        await createD(context, domain.id, { type: "TXT", name: "T1", content: "hello" }),
        409,
        "conflict",
        "name",
        "duplicate_record",
        'TXT hello at T1 is the record "hello" at t1',
      );
    },
  },
  {
    id: "dns.txt-strings",
    title:
      "TXT strings are at most 255 characters: 255 accepted, an unquoted 256 refused (422 invalid_format, not split), longer text as several quoted strings",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "txt");
      const a255 = "a".repeat(255);
      const b255 = "b".repeat(255);
      await expectAcceptedD(context, domain.id, [
        ["one string of 255", { type: "TXT", name: "t255", content: a255 }],
        ["two quoted strings of 255", { type: "TXT", name: "split", content: `"${a255}" "${b255}"` }],
        [
          "quoted strings holding escaped quotes and backslashes",
          { type: "TXT", name: "escapes", content: String.raw`"say \"hi\"" "back \\ slash"` },
        ],
      ]);
      await expectRefusedD(context, domain.id, [
        ["an unquoted 256", { type: "TXT", name: "t256", content: "t".repeat(256) }, "content", "invalid_format"],
        ["a quoted string of 256", { type: "TXT", name: "q256", content: `"${"c".repeat(256)}" "d"` }, "content", "invalid_format"],
        ["a second quoted string of 256", { type: "TXT", name: "q256b", content: `"d" "${"c".repeat(256)}"` }, "content", "invalid_format"],
      ]);
    },
  },
  {
    id: "dns.cname-not-at-root",
    title:
      "A CNAME at the root (@) is refused: 422 validation_error (name, invalid_value) in Variant D, 422 in the list shape in Variant R",
    needs,
    operations: ["createDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "cnr");
      const d = await createD(context, domain.id, { type: "CNAME", name: "@", content: "example.net" });
      expectCoded(d, 422, "validation_error", "name", "invalid_value", "a CNAME at @");
      if (context.api.has("createDnsRecord"))
        expectListShape(await createR(context, domain.id, { type: "CNAME", name: "@", value: "example.net" }), 422, "a CNAME at @");
      expect(await zoneOf(context, domain.id)).toEqual([]);
      await seedD(context, domain.id, { type: "CNAME", name: "www", content: "example.net" });
    },
  },
  {
    id: "dns.cname-owns-its-name",
    title:
      "A CNAME is alone at its name: a CNAME beside a record, a record beside a CNAME, a second CNAME, or an update onto such a name give 409 conflict (cname_conflict); deleting frees the name",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord", "deleteDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "cno");
      const a = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const cname = await seedD(context, domain.id, { type: "CNAME", name: "shop", content: "shops.example.net" });
      const before = await zoneOf(context, domain.id);
      const conflicts: Array<[string, Record<string, unknown>]> = [
        ["a CNAME beside an A", { type: "CNAME", name: "www", content: "example.net" }],
        ["a TXT beside a CNAME", { type: "TXT", name: "shop", content: "hello" }],
        ["an A beside a CNAME, the name in upper case", { type: "A", name: "SHOP", content: "192.0.2.2" }],
        ["a second CNAME", { type: "CNAME", name: "shop", content: "other.example.net" }],
      ];
      for (const [why, body] of conflicts)
        expectCoded(await createD(context, domain.id, body), 409, "conflict", "name", "cname_conflict", why);
      expectCoded(
        await putD(context, domain.id, a.id, { name: "shop" }),
        409,
        "conflict",
        "name",
        "cname_conflict",
        "renaming an A onto a CNAME's name",
      );
      expectCoded(
        await putD(context, domain.id, cname.id, { name: "www" }),
        409,
        "conflict",
        "name",
        "cname_conflict",
        "moving a CNAME onto an A's name",
      );
      await expectZoneUnchanged(context, domain.id, before, "refused writes change nothing");
      expectStatus(await deleteD(context, domain.id, a.id), 204);
      await seedD(context, domain.id, { type: "CNAME", name: "www", content: "example.net" });
    },
  },
  {
    id: "dns.identical-record-conflicts",
    title:
      "A record identical to an existing one (type, name and content in canonical form, whatever its ttl or the variant) gives 409 conflict (duplicate_record)",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "dup");
      await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2" });
      await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", priority: 10 });
      const before = await zoneOf(context, domain.id);
      expectCoded(
        await createD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1", ttl: 3600 }),
        409,
        "conflict",
        "name",
        "duplicate_record",
        "same A, another ttl",
      );
      expectCoded(
        await createD(context, domain.id, { type: "A", name: "WWW", content: "192.0.2.2" }),
        409,
        "conflict",
        "name",
        "duplicate_record",
        "same A, name in upper case",
      );
      expectCoded(
        await createD(context, domain.id, { type: "MX", name: "@", content: "MAIL.example.com.", priority: 20 }),
        409,
        "conflict",
        "name",
        "duplicate_record",
        "same MX host spelt otherwise",
      );
      if (context.api.has("createDnsRecord"))
        expectListShape(await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.1" }), 409, "Variant R, the same A");
      await expectZoneUnchanged(context, domain.id, before, "refused duplicates create nothing");
      const second = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.3" });
      expectCoded(
        await putD(context, domain.id, second.id, { content: "192.0.2.1" }),
        409,
        "conflict",
        "name",
        "duplicate_record",
        "an update making two records identical",
      );
      // Same content under another type or name is another record.
      await seedD(context, domain.id, { type: "TXT", name: "www", content: "192.0.2.1" });
      await seedD(context, domain.id, { type: "A", name: "api", content: "192.0.2.1" });
      const same = await putD(context, domain.id, second.id, { content: "192.0.2.3", ttl: 600 });
      expectStatus(same, 200, "an update that leaves the content as it is does not conflict with itself");
    },
  },
  {
    id: "dns.mx-and-srv-priority",
    title:
      "MX requires priority (422 missing_required_field), 0 to 65535; SRV takes it from content (another given is 422 invalid_value); other types refuse it (422 invalid_value) and answer null",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "pri");
      await expectAcceptedD(context, domain.id, [
        ["MX priority 0", { type: "MX", name: "m0", content: "mail.example.com", priority: 0 }, { priority: 0 }],
        ["MX priority 65535", { type: "MX", name: "m1", content: "mail.example.com", priority: 65535 }, { priority: 65535 }],
        ["SRV priority from content", { type: "SRV", name: "_a._tcp", content: "7 1 80 www.example.com" }, { priority: 7 }],
        [
          "SRV priority equal to content's",
          { type: "SRV", name: "_b._tcp", content: "7 1 80 www.example.com", priority: 7 },
          { priority: 7 },
        ],
        ["TXT answers null", { type: "TXT", name: "t", content: "x" }, { priority: null }],
      ]);
      await expectRefusedD(context, domain.id, [
        ["MX without priority", { type: "MX", name: "mx", content: "mail.example.com" }, "priority", "missing_required_field"],
        [
          "SRV priority other than content's",
          { type: "SRV", name: "_c._tcp", content: "7 1 80 www.example.com", priority: 8 },
          "priority",
          "invalid_value",
        ],
        ["A with a priority", { type: "A", name: "a", content: "192.0.2.1", priority: 10 }, "priority", "invalid_value"],
        ["CNAME with a priority", { type: "CNAME", name: "c", content: "example.net", priority: 0 }, "priority", "invalid_value"],
        ["TXT with a priority", { type: "TXT", name: "t2", content: "x", priority: 1 }, "priority", "invalid_value"],
      ]);
      for (const priority of [-1, 65536]) {
        const result = await createD(context, domain.id, { type: "MX", name: "mx", content: "mail.example.com", priority });
        expectConforming(result);
        expectStatus(result, 422, `MX priority ${priority}`);
      }
    },
  },
  {
    id: "dns.record-names",
    title:
      "Names: labels of 1 to 63 letters, digits and inner hyphens, `_` leading a label, `*` as the leftmost label, `@` for the root; otherwise 422 validation_error (name, invalid_format; an empty name or content too_short)",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "nam");
      const a = (name: string): Record<string, unknown> => ({ type: "A", name, content: "192.0.2.1" });
      await expectAcceptedD(context, domain.id, [
        ["the root", a("@")],
        ["a label of 63", a(`${"a".repeat(63)}.x`)],
        ["a wildcard", a("*.apps")],
        ["a wildcard alone", a("*")],
        ["an underscore label", a("_acme-challenge")],
        ["underscore labels", { type: "SRV", name: "_sip._tcp", content: "1 1 5060 sip.example.com" }],
        ["digits and inner hyphens", a("web-01.eu-west")],
        ["a single character", a("x")],
      ]);
      await expectRefusedD(context, domain.id, [
        ["a label of 64", a(`${"a".repeat(64)}.x`), "name", "invalid_format"],
        ["a leading hyphen", a("-www"), "name", "invalid_format"],
        ["a trailing hyphen", a("www-"), "name", "invalid_format"],
        ["an empty label", a("a..b"), "name", "invalid_format"],
        ["a wildcard not leftmost", a("www.*"), "name", "invalid_format"],
        ["a space", a("my host"), "name", "invalid_format"],
        ["a trailing dot", a("www."), "name", "invalid_format"],
        ["an @ inside", a("a@b"), "name", "invalid_format"],
        ["an underscore inside a label", a("my_host"), "name", "invalid_format"],
        ["an emoji's A-label", a("xn--e28h"), "name", "invalid_format"],
        ["an emoji's A-label after a valid label", a("www.xn--e28h"), "name", "invalid_format"],
        ["an empty name", a(""), "name", "too_short"],
        ["an empty content", { type: "A", name: "www", content: "" }, "content", "too_short"],
      ]);
    },
  },
  {
    id: "dns.full-name-at-most-253",
    title:
      "The full name (name, a dot and the domain) is at most 253 characters: exactly 253 accepted, 254 refused with 422 validation_error (name, too_long)",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "len");
      const room = 253 - domain.name.length - 1;
      await expectAcceptedD(context, domain.id, [["a full name of 253", { type: "TXT", name: nameOfLength(room), content: "fits" }]]);
      await expectRefusedD(context, domain.id, [
        ["a full name of 254", { type: "TXT", name: nameOfLength(room + 1), content: "too long" }, "name", "too_long"],
      ]);
    },
  },
  {
    id: "dns.one-spf-and-one-dmarc-per-name",
    title:
      "A name holds one SPF record (TXT v=spf1, any case: 409 spf_conflict) and a _dmarc name one DMARC record (409 dmarc_conflict); other TXT records beside them are fine",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "spf");
      await seedD(context, domain.id, { type: "TXT", name: "@", content: "v=spf1 mx ~all" });
      await seedD(context, domain.id, { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none" });
      await seedD(context, domain.id, { type: "TXT", name: "@", content: "google-site-verification=abc" });
      await seedD(context, domain.id, { type: "TXT", name: "mail", content: "v=spf1 -all" });
      const before = await zoneOf(context, domain.id);
      expectCoded(
        await createD(context, domain.id, { type: "TXT", name: "@", content: "V=SPF1 include:_spf.example.net -all" }),
        409,
        "conflict",
        "name",
        "spf_conflict",
        "a second SPF at @",
      );
      expectCoded(
        await createD(context, domain.id, { type: "TXT", name: "@", content: '"v=spf1 " "a -all"' }),
        409,
        "conflict",
        "name",
        "spf_conflict",
        "a second SPF split in strings",
      );
      expectCoded(
        await createD(context, domain.id, { type: "TXT", name: "@", content: '"v=sp" "f1 -all"' }),
        409,
        "conflict",
        "name",
        "spf_conflict",
        "a second SPF whose v=spf1 is split across strings",
      );
      expectCoded(
        await createD(context, domain.id, { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=reject" }),
        409,
        "conflict",
        "name",
        "dmarc_conflict",
        "a second DMARC",
      );
      await expectZoneUnchanged(context, domain.id, before, "refused policies create nothing");
      await seedD(context, domain.id, { type: "TXT", name: "@", content: "v=spf10 is not spf" });
    },
  },
  {
    id: "dns.update-changes-only-given-fields",
    title:
      "PUT changes only the fields given, answers 200 with the record as stored (updated_at moved, created_at kept) and the list reads the same",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "upd");
      const created = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.10", ttl: 900 });
      const steps: Array<[Record<string, unknown>, Partial<RecordD>]> = [
        [{ ttl: 600 }, { ttl: 600 }],
        [{ content: "192.0.2.20" }, { content: "192.0.2.20" }],
        [{ name: "Web" }, { name: "web" }],
      ];
      let current = created;
      for (const [body, change] of steps) {
        const result = await putD(context, domain.id, created.id, body);
        expectConforming(result);
        expectStatus(result, 200, JSON.stringify(body));
        const expected = { ...current, ...change, updated_at: expect.any(String) };
        expect(result.body).toEqual(expected);
        expect(Date.parse(result.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(current.updated_at));
        expect(await zoneOf(context, domain.id)).toEqual([result.body]);
        current = result.body;
      }
      const mx = await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", priority: 10 });
      const priority = await putD(context, domain.id, mx.id, { priority: 20 });
      expectStatus(priority, 200);
      expect(priority.body).toMatchObject({ content: "mail.example.com", priority: 20 });
      const srv = await seedD(context, domain.id, { type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" });
      const moved = await putD(context, domain.id, srv.id, { content: "20 60 5060 sip.example.com" });
      expectStatus(moved, 200);
      expect(moved.body).toMatchObject({ content: "20 60 5060 sip.example.com", priority: 20 });
      expect((await zoneOf(context, domain.id)).find((r) => r.id === srv.id)).toEqual(moved.body);
    },
  },
  {
    id: "dns.update-refusals-change-nothing",
    title:
      "PUT refuses type (400 unknown_field), an empty body (400), broken values (422 with field and code) and unknown records (404 not_found), changing nothing",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "upr");
      const other = await ownDomain(context, "upo");
      const record = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.10" });
      const elsewhere = await seedD(context, other.id, { type: "A", name: "www", content: "192.0.2.10" });
      const before = await zoneOf(context, domain.id);
      expectCoded(
        await putD(context, domain.id, record.id, { type: "CNAME", content: "example.net" }),
        400,
        "validation_error",
        "type",
        "unknown_field",
        "type in a PUT",
      );
      expectCoded(await putD(context, domain.id, record.id, {}), 400, "validation_error", undefined, undefined, "an empty PUT");
      expectCoded(
        await putD(context, domain.id, record.id, { content: "not-an-ip" }),
        422,
        "validation_error",
        "content",
        "invalid_format",
        "an A content",
      );
      expectCoded(
        await putD(context, domain.id, record.id, { priority: 5 }),
        422,
        "validation_error",
        "priority",
        "invalid_value",
        "a priority on an A",
      );
      expectCoded(await putD(context, domain.id, record.id, { name: "-bad" }), 422, "validation_error", "name", "invalid_format", "a name");
      expectCoded(
        await putD(context, domain.id, `${record.id}x`, { ttl: 600 }),
        404,
        "not_found",
        undefined,
        undefined,
        "an unknown record",
      );
      expectCoded(
        await putD(context, domain.id, elsewhere.id, { ttl: 600 }),
        404,
        "not_found",
        undefined,
        undefined,
        "a record of another domain of the partner",
      );
      await expectZoneUnchanged(context, domain.id, before, "refused updates change nothing");
      expect(await zoneOf(context, other.id)).toEqual([elsewhere]);
    },
  },
  {
    id: "dns.delete-removes-the-record",
    title:
      "DELETE answers 204 with no body; the record is gone from the list, from the domain detail and from Variant R's read; a second DELETE, or one through another domain of the partner, is 404",
    needs,
    operations: [...VARIANT_D, "deleteDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "del");
      const other = await ownDomain(context, "dlo");
      const kept = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const gone = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2" });
      expectCoded(
        await deleteD(context, other.id, gone.id),
        404,
        "not_found",
        undefined,
        undefined,
        "deleting through another domain of the partner",
      );
      expect((await zoneOf(context, domain.id)).map((r) => r.id).sort()).toEqual([kept.id, gone.id].sort());
      const removed = await deleteD(context, domain.id, gone.id);
      expectConforming(removed);
      expectStatus(removed, 204);
      expect(await zoneOf(context, domain.id)).toEqual([kept]);
      const list = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id } });
      expect(list.body.total).toBe(1);
      const detail = await context.api.call("getDomain", { path: { domain_id: domain.id } });
      expectStatus(detail, 200);
      if (Array.isArray(detail.body.dns_records)) {
        expect(detail.body.dns_records.map((r: RecordD) => r.id)).toEqual([kept.id]);
      }
      if (context.api.has("getDnsRecord"))
        expectListShape(await context.api.call("getDnsRecord", { path: { id: gone.id } }), 404, "a deleted record read through Variant R");
      expectCoded(await deleteD(context, domain.id, gone.id), 404, "not_found", undefined, undefined, "deleting it again");
      expectCoded(
        await putD(context, domain.id, gone.id, { ttl: 600 }),
        404,
        "not_found",
        undefined,
        undefined,
        "updating a deleted record",
      );
    },
  },
  {
    id: "dns.list-order",
    title:
      "The list is ordered by name (case-insensitive, code-point order: `*` and digits before `@`, then `_`, then letters), then type, then creation",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "ord");
      const created: RecordD[] = [];
      for (const body of [
        { type: "TXT", name: "b", content: "second" },
        { type: "A", name: "B", content: "192.0.2.2" },
        { type: "TXT", name: "b", content: "first" },
        { type: "A", name: "_x", content: "192.0.2.3" },
        { type: "MX", name: "@", content: "mail.example.com", priority: 1 },
        { type: "A", name: "a", content: "192.0.2.4" },
        { type: "A", name: "1", content: "192.0.2.5" },
        { type: "A", name: "*", content: "192.0.2.6" },
        { type: "AAAA", name: "b", content: "2001:db8::1" },
      ])
        created.push(await seedD(context, domain.id, body));
      const byContent = (content: string) => created.find((r) => r.content === content)!.id;
      const listed = (await zoneOf(context, domain.id)).map((r) => r.id);
      expect(listed).toEqual([
        byContent("192.0.2.6"),
        byContent("192.0.2.5"),
        byContent("mail.example.com"),
        byContent("192.0.2.3"),
        byContent("192.0.2.4"),
        byContent("192.0.2.2"),
        byContent("2001:db8::1"),
        byContent("second"),
        byContent("first"),
      ]);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof context.api.call>> = await context.api.call("listDomainDnsRecords", {
          path: { domain_id: domain.id },
          query: { limit: 2, ...(cursor ? { cursor } : {}) },
        });
        expectStatus(page, 200);
        expect(page.body.total).toBe(listed.length);
        paged.push(...page.body.records.map((r: RecordD) => r.id));
        cursor = page.body.next_cursor;
      } while (cursor && paged.length <= listed.length);
      expect(paged).toEqual(listed);
    },
  },
  {
    id: "dns.list-filters",
    title:
      "The list filters by type and by name (case-insensitive; `@` the apex, `*` the wildcard), total counting what the filters select",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "fil");
      const apexA = await seedD(context, domain.id, { type: "A", name: "@", content: "192.0.2.1" });
      const apexTxt = await seedD(context, domain.id, { type: "TXT", name: "@", content: "hello" });
      const wwwA = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2" });
      const wild = await seedD(context, domain.id, { type: "A", name: "*", content: "192.0.2.3" });
      const ids = async (query: Record<string, string>) => {
        const result = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id }, query });
        expectConforming(result);
        expectStatus(result, 200, `filter ${JSON.stringify(query)}`);
        expect({ query, total: result.body.total }).toEqual({ query, total: result.body.records.length });
        return result.body.records.map((r: RecordD) => r.id).sort();
      };
      const sorted = (...records: RecordD[]) => records.map((r) => r.id).sort();
      expect(await ids({ type: "A" })).toEqual(sorted(apexA, wwwA, wild));
      expect(await ids({ type: "TXT" })).toEqual(sorted(apexTxt));
      expect(await ids({ name: "WWW" })).toEqual(sorted(wwwA));
      expect(await ids({ type: "TXT", name: "www" })).toEqual([]);
      expect(await ids({ type: "MX" })).toEqual([]);
      // As clients send them: `@` and `*` as they are (RFC 3986 allows both in a query) and percent-encoded, in either case.
      const spellings: Array<[string, RecordD[]]> = [
        ["name=@", [apexA, apexTxt]],
        ["name=%40", [apexA, apexTxt]],
        ["name=*", [wild]],
        ["name=%2A", [wild]],
        ["name=%2a", [wild]],
        ["type=A&name=*", [wild]],
      ];
      for (const [rawQuery, expected] of spellings) {
        const result = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id }, rawQuery });
        expectConforming(result);
        expectStatus(result, 200, `filter ?${rawQuery}`);
        const found = result.body.records.map((r: RecordD) => r.id).sort();
        expect({ filter: rawQuery, ids: found, total: result.body.total }).toEqual({
          filter: rawQuery,
          ids: sorted(...expected),
          total: expected.length,
        });
      }
    },
  },
  {
    id: "dns.unknown-domain-404",
    title: "Every Variant D record operation on a domain that does not exist answers 404 not_found (coded shape)",
    needs: ["state"],
    operations: VARIANT_D,
    async run(context) {
      const path = { domain_id: `dom_${context.unique("none").replace(/-/g, "")}` };
      const record = { type: "A", name: "www", content: "192.0.2.1" };
      const calls: Array<[string, Record<string, unknown>]> = [
        ["listDomainDnsRecords", { path }],
        ["createDomainDnsRecord", { path, body: record }],
        ["updateDomainDnsRecord", { path: { ...path, record_id: "rec_none" }, body: { ttl: 600 } }],
        ["deleteDomainDnsRecord", { path: { ...path, record_id: "rec_none" } }],
        ["bulkCreateDomainDnsRecords", { path, body: { records: [record] } }],
        ["applyDnsTemplate", { path, body: { template_id: "google-workspace" } }],
        ["applyDnsChangeSet", { path, body: { creates: [record] } }],
      ];
      for (const [operationId, input] of calls)
        if (context.api.has(operationId))
          expectCoded(await context.api.call(operationId, input), 404, "not_found", undefined, undefined, operationId);
    },
  },
  {
    id: "dns.structure-errors-400",
    title:
      "A create missing a required field, with an unknown field or a field of the wrong type answers 400 validation_error naming it (missing_required_field, unknown_field, invalid_type); an unknown type 422",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "str");
      const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
        ["content missing", { type: "A", name: "www" }, 400, "content", "missing_required_field"],
        ["name missing", { type: "A", content: "192.0.2.1" }, 400, "name", "missing_required_field"],
        ["type missing", { name: "www", content: "192.0.2.1" }, 400, "type", "missing_required_field"],
        ["Variant R's value", { type: "A", name: "www", content: "192.0.2.1", value: "192.0.2.1" }, 400, "value", "unknown_field"],
        ["ttl as a string", { type: "A", name: "www", content: "192.0.2.1", ttl: "300" }, 400, "ttl", "invalid_type"],
        ["an unknown type", { type: "PTR", name: "www", content: "host.example.net" }, 422, "type", "invalid_value"],
      ];
      for (const [why, body, status, field, code] of cases)
        expectCoded(await createD(context, domain.id, body), status, "validation_error", field, code, why);
      expect(await zoneOf(context, domain.id)).toEqual([]);
    },
  },
  {
    id: "dns.records-per-domain-limit",
    title:
      "A domain holds at most 1000 records: a create, bulk or template past it answers 422 unprocessable_entity (record_limit_exceeded, limit 1000) creating nothing; a delete makes room",
    needs,
    operations: [...VARIANT_D, "bulkCreateDomainDnsRecords", "deleteDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "max");
      for (let batch = 0; batch < 10; batch++) {
        const records = Array.from({ length: 100 }, (_, i) => ({ type: "A", name: `h${batch * 100 + i}`, content: "192.0.2.1" }));
        const result = await context.api.call("bulkCreateDomainDnsRecords", { path: { domain_id: domain.id }, body: { records } });
        expectStatus(result, 200, `filling the domain, batch ${batch}`);
        expect(result.body.errors).toEqual([]);
      }
      const full = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id }, query: { limit: 1 } });
      expect(full.body.total).toBe(1000);
      const limitError = (result: Awaited<ReturnType<typeof createD>>, why: string) => {
        expectCoded(result, 422, "unprocessable_entity", undefined, "record_limit_exceeded", why);
        expect(result.body.details.limit).toBe(1000);
      };
      limitError(await createD(context, domain.id, { type: "A", name: "one-more", content: "192.0.2.1" }), "the 1001st record");
      limitError(
        await context.api.call("bulkCreateDomainDnsRecords", {
          path: { domain_id: domain.id },
          body: { records: [{ type: "A", name: "bulk-more", content: "192.0.2.1" }] },
        }),
        "a bulk past the limit",
      );
      if (context.api.has("applyDnsTemplate"))
        limitError(
          await context.api.call("applyDnsTemplate", {
            path: { domain_id: domain.id },
            body: { template_id: "web-host", variables: { ip: "192.0.2.9" } },
          }),
          "a template past the limit",
        );
      if (context.api.has("createDnsRecord"))
        expectListShape(
          await createR(context, domain.id, { type: "A", name: "r-more", value: "192.0.2.1" }),
          422,
          "Variant R past the limit",
        );
      const after = await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id }, query: { limit: 1 } });
      expect(after.body.total).toBe(1000);
      expectStatus(await deleteD(context, domain.id, after.body.records[0].id), 204);
      await seedD(context, domain.id, { type: "A", name: "one-more", content: "192.0.2.1" });
    },
  },
  // Variant R
  {
    id: "dns.r-create-and-read",
    title:
      "A Variant R create answers 201 in the R shape (ttl 3600 by default, unused fields null) and GET /dns_records/{id} reads it identically",
    needs,
    operations: VARIANT_R,
    async run(context) {
      const domain = await ownDomain(context, "rcr");
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [
          { type: "A", name: "www", value: "192.0.2.10" },
          { ttl: 3600, priority: null, weight: null, port: null, target: null },
        ],
        [
          { type: "MX", name: "@", value: "mail.example.com", priority: 10, ttl: 600 },
          { priority: 10, weight: null, port: null, target: null },
        ],
        [
          { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 10, weight: 60, port: 5060 },
          { priority: 10, weight: 60, port: 5060, target: "sip.example.com", ttl: 3600 },
        ],
        [
          { type: "TXT", name: "Txt", value: '"hello"' },
          { name: "txt", value: "hello", priority: null, weight: null, port: null, target: null },
        ],
      ];
      for (const [body, expected] of cases) {
        const created = await createR(context, domain.id, body);
        expectConforming(created);
        expectStatus(created, 201, JSON.stringify(body));
        expect(created.body).toEqual({
          ...body,
          ...expected,
          id: expect.any(String),
          domain_id: domain.id,
          ttl: expected.ttl ?? body.ttl ?? 3600,
          comment: null,
          locked: false,
        });
        const read = await context.api.call("getDnsRecord", { path: { id: created.body.id } });
        expectConforming(read);
        expectStatus(read, 200);
        expect(read.body).toEqual(created.body);
      }
    },
  },
  {
    id: "dns.r-validation-rules",
    title:
      "Variant R applies the same rules (MX and SRV parts required, SRV-only fields, CNAME not at root, ttl 60 to 86400, value by type), refusing with 422 in the list shape and creating nothing",
    needs,
    operations: VARIANT_R,
    async run(context) {
      const domain = await ownDomain(context, "rva");
      const refused: Array<[string, Record<string, unknown>]> = [
        ["an MX without priority", { type: "MX", name: "@", value: "mail.example.com" }],
        ["an SRV without weight", { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, port: 5060 }],
        [
          "an SRV target other than value",
          { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 1, port: 5060, target: "other.example.com" },
        ],
        ["a weight on an A", { type: "A", name: "www", value: "192.0.2.1", weight: 1 }],
        ["a priority on an A", { type: "A", name: "www", value: "192.0.2.1", priority: 1 }],
        ["a CNAME at the root", { type: "CNAME", name: "@", value: "example.net" }],
        ["ttl 59", { type: "A", name: "www", value: "192.0.2.1", ttl: 59 }],
        ["ttl 86401", { type: "A", name: "www", value: "192.0.2.1", ttl: 86401 }],
        ["an A value that is not an address", { type: "A", name: "www", value: "not-an-ip" }],
        ["a TXT string of 256", { type: "TXT", name: "t", value: "t".repeat(256) }],
        ["a label of 64", { type: "A", name: `${"a".repeat(64)}.x`, value: "192.0.2.1" }],
      ];
      for (const [why, body] of refused) expectListShape(await createR(context, domain.id, body), 422, why);
      for (const ttl of [60, 86400]) {
        const accepted = await createR(context, domain.id, { type: "A", name: `ttl${ttl}`, value: "192.0.2.1", ttl });
        expectStatus(accepted, 201, `ttl ${ttl}`);
        expect(accepted.body.ttl).toBe(ttl);
      }
      if (context.api.has("listDomainDnsRecords"))
        expect((await zoneOf(context, domain.id)).map((r) => r.name).sort()).toEqual(["ttl60", "ttl86400"]);
    },
  },
  {
    id: "dns.r-errors-use-the-list-shape",
    title: "Variant R record operations answer 400, 404, 409 and 422 in the list shape { errors: [...] }, and 401 in the coded shape",
    needs,
    operations: [...VARIANT_R, "updateDnsRecord", "deleteDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "rls");
      const record = await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.1" });
      expectStatus(record, 201);
      const missing = `${record.body.id}x`;
      expectListShape(
        await context.api.call("createDnsRecord", { body: { domain_id: domain.id, type: "A", name: "www" } }),
        400,
        "value missing",
      );
      expectListShape(
        await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.2", content: "x" }),
        400,
        "an unknown field",
      );
      expectListShape(await createR(context, domain.id, { type: "A", name: "bad", value: "not-an-ip" }), 422, "an A value");
      expectListShape(await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.1" }), 409, "an identical record");
      expectListShape(
        await createR(context, `dom_${context.unique("none").replace(/-/g, "")}`, { type: "A", name: "www", value: "192.0.2.1" }),
        404,
        "an unknown domain",
      );
      expectListShape(await context.api.call("getDnsRecord", { path: { id: missing } }), 404, "an unknown record");
      expectListShape(
        await context.api.call("updateDnsRecord", { path: { id: missing }, body: { ttl: 600 } }),
        404,
        "PATCH an unknown record",
      );
      expectListShape(await context.api.call("updateDnsRecord", { path: { id: record.body.id }, body: { ttl: 30 } }), 422, "PATCH ttl 30");
      expectListShape(await context.api.call("updateDnsRecord", { path: { id: record.body.id }, body: {} }), 400, "an empty PATCH");
      expectListShape(await context.api.call("deleteDnsRecord", { path: { id: missing } }), 404, "DELETE an unknown record");
      // Prism's proxy answers a request without credentials itself, in its own shape (stoplightio/prism#1827).
      if (!context.target.throughPrismProxy)
        expectCoded(
          await context.api.call("getDnsRecord", { path: { id: record.body.id }, key: null }),
          401,
          "unauthorized",
          undefined,
          undefined,
          "no key",
        );
    },
  },
  {
    id: "dns.r-update-and-read",
    title:
      "PATCH changes the fields given; a type change validates the whole record and clears the old type's fields; GET reads what PATCH answered",
    needs,
    operations: [...VARIANT_R, "updateDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "rup");
      const created = await createR(context, domain.id, { type: "MX", name: "mail", value: "mail.example.com", priority: 10 });
      expectStatus(created, 201);
      const id = created.body.id;
      const steps: Array<[Record<string, unknown>, Record<string, unknown>, number]> = [
        [{ ttl: 600 }, { ttl: 600, priority: 10 }, 200],
        // The type it has already is no type change: the record keeps its other fields.
        [{ type: "MX", ttl: 700 }, { ttl: 700, priority: 10 }, 200],
        [{ priority: 20 }, { priority: 20 }, 200],
        [{ type: "A" }, {}, 422],
        [{ type: "A", value: "192.0.2.5" }, { type: "A", value: "192.0.2.5", priority: null }, 200],
        [{ value: "192.0.2.6" }, { value: "192.0.2.6" }, 200],
        [
          { type: "SRV", name: "_sip._tcp", value: "sip.example.com", priority: 1, weight: 2, port: 3 },
          { type: "SRV", priority: 1, weight: 2, port: 3, target: "sip.example.com" },
          200,
        ],
        [{ value: "sip2.example.com" }, { value: "sip2.example.com", target: "sip2.example.com" }, 200],
        [{ type: "CNAME", name: "@", value: "example.net" }, {}, 422],
      ];
      let current = created.body;
      for (const [body, change, status] of steps) {
        const result = await context.api.call("updateDnsRecord", { path: { id }, body });
        if (status === 422) expectListShape(result, 422, `PATCH ${JSON.stringify(body)}`);
        else {
          expectConforming(result);
          expectStatus(result, 200, `PATCH ${JSON.stringify(body)}`);
          current = { ...current, ...body, ...change };
          expect(result.body).toEqual(current);
        }
        const read = await context.api.call("getDnsRecord", { path: { id } });
        expect({ after: body, read: read.body }).toEqual({ after: body, read: current });
      }
    },
  },
  {
    id: "dns.r-delete-removes-the-record",
    title:
      "Variant R DELETE answers 204 with no body; the record is gone from GET (404) and from the domain's list; a second DELETE is 404",
    needs,
    operations: [...VARIANT_R, "deleteDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "rde");
      const kept = await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.1" });
      const gone = await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.2" });
      const removed = await context.api.call("deleteDnsRecord", { path: { id: gone.body.id } });
      expectConforming(removed);
      expectStatus(removed, 204);
      expectListShape(await context.api.call("getDnsRecord", { path: { id: gone.body.id } }), 404, "reading the deleted record");
      expectStatus(await context.api.call("getDnsRecord", { path: { id: kept.body.id } }), 200, "the other record is kept");
      if (context.api.has("listDomainDnsRecords")) expect((await zoneOf(context, domain.id)).map((r) => r.id)).toEqual([kept.body.id]);
      expectListShape(await context.api.call("deleteDnsRecord", { path: { id: gone.body.id } }), 404, "deleting it again");
    },
  },
  {
    id: "dns.variants-share-one-store",
    title:
      "A record written through one variant is read, updated and deleted through the other (value is content; SRV content splits into priority, weight, port, target)",
    needs,
    operations: [...VARIANT_R, ...VARIANT_D, "updateDomainDnsRecord", "updateDnsRecord", "deleteDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "shr");
      const d = await seedD(context, domain.id, { type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", ttl: 900 });
      const asR = await context.api.call("getDnsRecord", { path: { id: d.id } });
      expectStatus(asR, 200);
      expect(asR.body).toEqual({
        id: d.id,
        domain_id: domain.id,
        type: "SRV",
        name: "_sip._tcp",
        value: "sip.example.com",
        ttl: 900,
        priority: 10,
        weight: 60,
        port: 5060,
        target: "sip.example.com",
        comment: null,
        locked: false,
      });
      const r = await createR(context, domain.id, { type: "A", name: "www", value: "192.0.2.1" });
      expectStatus(r, 201);
      const listed = (await zoneOf(context, domain.id)).find((record) => record.id === r.body.id);
      expect(listed).toMatchObject({ type: "A", name: "www", content: "192.0.2.1", ttl: 3600, priority: null });
      expectStatus(await putD(context, domain.id, r.body.id, { content: "192.0.2.99", ttl: 120 }), 200);
      expect((await context.api.call("getDnsRecord", { path: { id: r.body.id } })).body).toMatchObject({ value: "192.0.2.99", ttl: 120 });
      const patched = await context.api.call("updateDnsRecord", { path: { id: d.id }, body: { port: 5061 } });
      expectStatus(patched, 200);
      expect((await zoneOf(context, domain.id)).find((record) => record.id === d.id)).toMatchObject({
        content: "10 60 5061 sip.example.com",
        priority: 10,
      });
      expectStatus(await deleteD(context, domain.id, r.body.id), 204);
      expectListShape(await context.api.call("getDnsRecord", { path: { id: r.body.id } }), 404, "deleted through Variant D");
      expect(brief((await zoneOf(context, domain.id))[0]!)).toEqual({
        type: "SRV",
        name: "_sip._tcp",
        content: "10 60 5061 sip.example.com",
        priority: 10,
      });
    },
  },
]);
