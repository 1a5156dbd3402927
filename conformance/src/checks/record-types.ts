/**
 * The record types website platforms need (CAA, ALIAS, HTTPS, SVCB, TLSA): each type's form with
 * the exact status and code of a refusal, its canonical spelling, ALIAS's place at the root, and the
 * same rules through Variant R, bulk and change sets.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
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
} from "./dns-records-support.js";

const needs = ["state" as const, "sandbox" as const];
const SHA256 = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";

type Case = [why: string, body: Record<string, unknown>];

/** Each create must answer 201 with `content` (and `priority`) as stored, the list showing it. */
async function expectStored(
  context: CheckContext,
  domainId: string,
  cases: Array<[why: string, body: Record<string, unknown>, content: string, priority?: number]>,
): Promise<void> {
  for (const [why, body, content, priority = null] of cases) {
    const result = await createD(context, domainId, body);
    expectConforming(result);
    expectStatus(result, 201, why);
    expect({ why, record: brief(result.body) }).toEqual({ why, record: { type: body.type, name: body.name, content, priority } });
    const listed = (await zoneOf(context, domainId)).find((record) => record.id === result.body.id);
    expect({ why, listed }).toEqual({ why, listed: result.body });
  }
}

/** Each create must answer 422 validation_error with this field and code, and create nothing. */
async function expectRefused(context: CheckContext, domainId: string, field: string, code: string, cases: Case[]): Promise<void> {
  const before = await zoneOf(context, domainId);
  for (const [why, body] of cases) expectCoded(await createD(context, domainId, body), 422, "validation_error", field, code, why);
  await expectZoneUnchanged(context, domainId, before, "refused creates must create nothing");
}

export default defineChecks([
  {
    id: "record-types.caa-content",
    title:
      'CAA is `flags tag "value"`: flags 0 or 128, tag issue, issuewild or iodef, the value checked per tag; stored with the tag in lower case and the value quoted; otherwise 422 (content, invalid_format)',
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "caa");
      await expectStored(context, domain.id, [
        ["issue, quoted", { type: "CAA", name: "@", content: '0 issue "letsencrypt.org"' }, '0 issue "letsencrypt.org"'],
        ["issue unquoted, the tag in upper case", { type: "CAA", name: "www", content: "0 ISSUE Pki.Goog" }, '0 issue "pki.goog"'],
        ["issuewild forbidding every CA, critical", { type: "CAA", name: "@", content: '128 issuewild ";"' }, '128 issuewild ";"'],
        [
          "issue with parameters",
          { type: "CAA", name: "shop", content: '0 issue "sectigo.com;validationmethods=dns-01"' },
          '0 issue "sectigo.com; validationmethods=dns-01"',
        ],
        [
          "iodef mailto",
          { type: "CAA", name: "@", content: '0 iodef "mailto:security@example.com"' },
          '0 iodef "mailto:security@example.com"',
        ],
        [
          "iodef https",
          { type: "CAA", name: "@", content: '0 iodef "https://iodef.example.com/"' },
          '0 iodef "https://iodef.example.com/"',
        ],
      ]);
      await expectRefused(context, domain.id, "content", "invalid_format", [
        ["flags 1 (a reserved bit)", { type: "CAA", name: "@", content: '1 issue "letsencrypt.org"' }],
        ["flags 256", { type: "CAA", name: "@", content: '256 issue "letsencrypt.org"' }],
        ["an unknown tag", { type: "CAA", name: "@", content: '0 issuemail "letsencrypt.org"' }],
        ["issue of something not a domain name", { type: "CAA", name: "@", content: '0 issue "not a domain"' }],
        ["a parameter without a value sign", { type: "CAA", name: "@", content: '0 issue "letsencrypt.org; dns-01"' }],
        ["iodef ftp", { type: "CAA", name: "@", content: '0 iodef "ftp://example.com/"' }],
        ["iodef a bare address", { type: "CAA", name: "@", content: '0 iodef "security@example.com"' }],
        ["two parts", { type: "CAA", name: "@", content: "0 issue" }],
      ]);
    },
  },
  {
    id: "record-types.alias-at-the-root",
    title:
      "ALIAS is only at the root (elsewhere 422 name invalid_value), at most one there, never beside A or AAAA (409 alias_conflict either way); deleting frees the root",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord", "deleteDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "als");
      await expectRefused(context, domain.id, "name", "invalid_value", [
        ["an ALIAS at www", { type: "ALIAS", name: "www", content: "target.example.net" }],
      ]);
      await expectRefused(context, domain.id, "content", "invalid_format", [
        ["an ALIAS to one label", { type: "ALIAS", name: "@", content: "localhost" }],
        ["an ALIAS to an address", { type: "ALIAS", name: "@", content: "192.0.2.1" }],
      ]);
      await expectStored(context, domain.id, [
        ["an ALIAS at the root", { type: "ALIAS", name: "@", content: "Site.Example.NET." }, "site.example.net"],
      ]);
      const www = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", priority: 10 });
      const before = await zoneOf(context, domain.id);
      for (const [why, body] of [
        ["a second ALIAS", { type: "ALIAS", name: "@", content: "other.example.net" }],
        ["an A beside the ALIAS", { type: "A", name: "@", content: "192.0.2.2" }],
        ["an AAAA beside the ALIAS", { type: "AAAA", name: "@", content: "2001:db8::2" }],
      ] as Case[])
        expectCoded(await createD(context, domain.id, body), 409, "conflict", "name", "alias_conflict", why);
      expectCoded(
        await context.api.call("updateDomainDnsRecord", { path: { domain_id: domain.id, record_id: www.id }, body: { name: "@" } }),
        409,
        "conflict",
        "name",
        "alias_conflict",
        "moving an A onto the root beside the ALIAS",
      );
      await expectZoneUnchanged(context, domain.id, before, "refused writes change nothing");

      const other = await ownDomain(context, "alt");
      const apexA = await seedD(context, other.id, { type: "A", name: "@", content: "192.0.2.3" });
      expectCoded(
        await createD(context, other.id, { type: "ALIAS", name: "@", content: "site.example.net" }),
        409,
        "conflict",
        "name",
        "alias_conflict",
        "an ALIAS where an A is",
      );
      expectStatus(await context.api.call("deleteDomainDnsRecord", { path: { domain_id: other.id, record_id: apexA.id } }), 204);
      await seedD(context, other.id, { type: "ALIAS", name: "@", content: "site.example.net" });
    },
  },
  {
    id: "record-types.https-and-svcb-content",
    title:
      "HTTPS and SVCB are `priority target params`: AliasMode without params, registered keys each checked and given once, stored in key order; the priority is the content's and a different one is 422 priority invalid_value",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "svc");
      await expectStored(context, domain.id, [
        ["HTTPS ServiceMode on the owner", { type: "HTTPS", name: "@", content: "1 . alpn=h2,h3" }, "1 . alpn=h2,h3", 1],
        ["HTTPS AliasMode", { type: "HTTPS", name: "www", content: "0 CDN.example.net." }, "0 cdn.example.net", 0],
        [
          "HTTPS params out of order, quoted, with a leading zero and a long IPv6 address",
          { type: "HTTPS", name: "shop", content: '2 shop.example.net. ipv6hint=2001:0DB8:0:0:0:0:0:1 port=0443 alpn="h2"' },
          "2 shop.example.net alpn=h2 port=443 ipv6hint=2001:db8::1",
          2,
        ],
        [
          "HTTPS with mandatory keys listed out of order",
          { type: "HTTPS", name: "api", content: "1 . mandatory=port,alpn alpn=h3 port=8443 ipv4hint=192.0.2.1", priority: 1 },
          "1 . mandatory=alpn,port alpn=h3 port=8443 ipv4hint=192.0.2.1",
          1,
        ],
        [
          "SVCB",
          { type: "SVCB", name: "_8443._foo", content: "3 svc.example.net port=8443 key65000=x" },
          "3 svc.example.net port=8443 key65000=x",
          3,
        ],
      ]);
      await expectRefused(context, domain.id, "content", "invalid_format", [
        ["AliasMode with params", { type: "HTTPS", name: "a", content: "0 cdn.example.net alpn=h2" }],
        ["a key given twice", { type: "HTTPS", name: "a", content: "1 . alpn=h2 alpn=h3" }],
        ["an unregistered key name", { type: "HTTPS", name: "a", content: "1 . colour=blue" }],
        ["port past 65535", { type: "HTTPS", name: "a", content: "1 . port=65536" }],
        ["ipv4hint not an address", { type: "HTTPS", name: "a", content: "1 . ipv4hint=192.0.2.300" }],
        ["ipv6hint an IPv4 address", { type: "HTTPS", name: "a", content: "1 . ipv6hint=192.0.2.1" }],
        ["no-default-alpn without alpn", { type: "HTTPS", name: "a", content: "1 . no-default-alpn" }],
        ["mandatory naming an absent key", { type: "HTTPS", name: "a", content: "1 . mandatory=port alpn=h2" }],
        ["ech not base64", { type: "HTTPS", name: "a", content: "1 . ech=***" }],
        ["priority past 65535", { type: "SVCB", name: "a", content: "65536 svc.example.net" }],
        ["a target that is not a host", { type: "SVCB", name: "a", content: "1 not_a_host port=1" }],
        ["no target", { type: "SVCB", name: "a", content: "1" }],
      ]);
      await expectRefused(context, domain.id, "priority", "invalid_value", [
        ["a priority other than the content's", { type: "HTTPS", name: "b", content: "1 . alpn=h2", priority: 2 }],
      ]);
    },
  },
  {
    id: "record-types.tlsa-content",
    title:
      "TLSA is `usage selector matching-type data` with the data's length fixed by the matching type, stored in lower case, at a `_port._protocol` name; otherwise 422 (content invalid_format, name invalid_value)",
    needs,
    operations: VARIANT_D,
    async run(context) {
      const domain = await ownDomain(context, "tls");
      await expectStored(context, domain.id, [
        ["DANE-EE SHA-256", { type: "TLSA", name: "_443._tcp.www", content: `3 1 1 ${SHA256}` }, `3 1 1 ${SHA256.toLowerCase()}`],
        ["SHA-512 at the mail port", { type: "TLSA", name: "_25._tcp", content: `2 0 2 ${"AB".repeat(64)}` }, `2 0 2 ${"ab".repeat(64)}`],
        ["the full value, split by spaces", { type: "TLSA", name: "_443._tcp", content: "0 0 0 3082 01" }, "0 0 0 308201"],
      ]);
      await expectRefused(context, domain.id, "content", "invalid_format", [
        ["usage 4", { type: "TLSA", name: "_443._tcp", content: `4 1 1 ${SHA256}` }],
        ["selector 2", { type: "TLSA", name: "_443._tcp", content: `3 2 1 ${SHA256}` }],
        ["matching type 3", { type: "TLSA", name: "_443._tcp", content: `3 1 3 ${SHA256}` }],
        ["a SHA-256 digest one byte short", { type: "TLSA", name: "_443._tcp", content: `3 1 1 ${SHA256.slice(2)}` }],
        ["a SHA-256 digest given for SHA-512", { type: "TLSA", name: "_443._tcp", content: `3 1 2 ${SHA256}` }],
        ["an odd number of digits", { type: "TLSA", name: "_443._tcp", content: "3 1 0 abc" }],
        ["not hexadecimal", { type: "TLSA", name: "_443._tcp", content: `3 1 1 ${"zz".repeat(32)}` }],
      ]);
      await expectRefused(context, domain.id, "name", "invalid_value", [
        ["a name without port and protocol", { type: "TLSA", name: "www", content: `3 1 1 ${SHA256}` }],
        ["a port past 65535", { type: "TLSA", name: "_65536._tcp", content: `3 1 1 ${SHA256}` }],
        ["an unknown protocol", { type: "TLSA", name: "_443._web", content: `3 1 1 ${SHA256}` }],
      ]);
    },
  },
  {
    id: "record-types.every-way-of-writing",
    title:
      "The new types' rules hold in Variant R (value the content, list-shaped refusals), bulk (refused by index, the rest created) and change sets (refused whole with the rule's code)",
    needs,
    operations: [...VARIANT_R, ...VARIANT_D, "updateDnsRecord", "bulkCreateDomainDnsRecords", "applyDnsChangeSet"],
    async run(context) {
      const domain = await ownDomain(context, "rtw");
      const created = await createR(context, domain.id, { type: "HTTPS", name: "@", value: "1 . port=443 alpn=h2" });
      expectConforming(created);
      expectStatus(created, 201, "Variant R HTTPS");
      expect(created.body).toMatchObject({
        type: "HTTPS",
        value: "1 . alpn=h2 port=443",
        priority: 1,
        weight: null,
        port: null,
        target: null,
      });
      const read = await context.api.call("getDnsRecord", { path: { id: created.body.id } });
      expectStatus(read, 200);
      expect(read.body).toEqual(created.body);
      const patched = await context.api.call("updateDnsRecord", { path: { id: created.body.id }, body: { value: "2 . alpn=h3" } });
      expectStatus(patched, 200, "Variant R PATCH of an HTTPS value: the new value brings its priority");
      expect(patched.body).toMatchObject({ value: "2 . alpn=h3", priority: 2 });
      const before = await zoneOf(context, domain.id);
      for (const [why, body] of [
        ["Variant R CAA with an unknown tag", { type: "CAA", name: "@", value: '0 issuevmc "example.com"' }],
        ["Variant R ALIAS off the root", { type: "ALIAS", name: "www", value: "site.example.net" }],
        ["Variant R TLSA digest too short", { type: "TLSA", name: "_443._tcp", value: "3 1 1 abcd" }],
        ["Variant R HTTPS with another priority", { type: "HTTPS", name: "www", value: "1 . alpn=h2", priority: 5 }],
      ] as Case[])
        expectListShape(await createR(context, domain.id, body), 422, why);
      await expectZoneUnchanged(context, domain.id, before, "refused Variant R creates create nothing");

      const records = [
        { type: "CAA", name: "@", content: '0 issue "letsencrypt.org"' },
        { type: "ALIAS", name: "www", content: "site.example.net" },
        { type: "TLSA", name: "_443._tcp", content: `3 1 1 ${SHA256}` },
        { type: "SVCB", name: "_dns", content: "1 dns.example.net alpn=dot alpn=doh" },
      ];
      const bulk = await context.api.call("bulkCreateDomainDnsRecords", { path: { domain_id: domain.id }, body: { records } });
      expectConforming(bulk);
      expectStatus(bulk, 200, "bulk of new types");
      expect(bulk.body.created.map(brief)).toEqual([
        { type: "CAA", name: "@", content: '0 issue "letsencrypt.org"', priority: null },
        { type: "TLSA", name: "_443._tcp", content: `3 1 1 ${SHA256.toLowerCase()}`, priority: null },
      ]);
      expect(bulk.body.errors.map((error: { index: number }) => error.index)).toEqual([1, 3]);

      const zone = await zoneOf(context, domain.id);
      const refused = await context.api.call("applyDnsChangeSet", {
        path: { domain_id: domain.id },
        body: {
          creates: [
            { type: "CAA", name: "@", content: '0 issuewild ";"' },
            { type: "ALIAS", name: "@", content: "site.example.net" },
            { type: "A", name: "@", content: "192.0.2.9" },
          ],
        },
      });
      expectCoded(
        refused,
        422,
        "unprocessable_entity",
        undefined,
        "change_set_rejected",
        "a change set adding an ALIAS and an A at the root",
      );
      const codes = (refused.body.details.errors ?? []).map((error: { code: string }) => error.code);
      expect({ codes }).toEqual({ codes: ["alias_conflict"] });
      await expectZoneUnchanged(context, domain.id, zone, "a refused change set changes nothing");
    },
  },
]);
