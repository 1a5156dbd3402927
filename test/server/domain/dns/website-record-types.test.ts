/** CAA, ALIAS, HTTPS, SVCB and TLSA: each type's form, its canonical spelling, and its name and zone rules. */
import { describe, expect, it } from "vitest";
import { readContent } from "../../../../server/domain/dns/record-content.js";
import { parseRecord, recordConflict, updatedDraft, type RecordDraft } from "../../../../server/domain/dns/record-rules.js";
import type { DnsRecordRow } from "../../../../server/domain/dns/record-store.js";
import { draftFromR, mergeRPatch } from "../../../../server/domain/dns/variant-r-input.js";

const DOMAIN = "example.com";
const draft = (overrides: Partial<RecordDraft>): RecordDraft => ({
  type: "A",
  name: "@",
  content: "203.0.113.10",
  ttl: 300,
  priority: null,
  ...overrides,
});
const reading = (type: RecordDraft["type"], content: string) => {
  const read = readContent(type, content);
  return "problem" in read ? { problem: read.problem } : read.canonical;
};
const SHA256 = "AB".repeat(32);

describe("contents accepted, in their canonical spelling", () => {
  it.each([
    ["CAA", '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
    ["CAA", "0 ISSUE LetsEncrypt.org.", '0 issue "letsencrypt.org"'],
    ["CAA", '128 issuewild ";"', '128 issuewild ";"'],
    ["CAA", '0 issue ""', '0 issue ";"'],
    [
      "CAA",
      '0 issue "letsencrypt.org;validationmethods=dns-01;accounturi=https://acme.example/acct/1"',
      '0 issue "letsencrypt.org; validationmethods=dns-01; accounturi=https://acme.example/acct/1"',
    ],
    ["CAA", '0 issue "; validationmethods=dns-01"', '0 issue "; validationmethods=dns-01"'],
    ["CAA", '0 iodef "mailto:security@example.com"', '0 iodef "mailto:security@example.com"'],
    ["CAA", '0 iodef "https://iodef.example.com/report"', '0 iodef "https://iodef.example.com/report"'],
    ["ALIAS", "Target.Example.NET.", "target.example.net"],
    ["HTTPS", "1 . alpn=h2,h3", "1 . alpn=h2,h3"],
    ["HTTPS", "0 cdn.Example.net.", "0 cdn.example.net"],
    ["HTTPS", "0 .", "0 ."],
    ["HTTPS", '1  .  port=08443 alpn="h3,h2" ipv4hint=192.0.2.1,192.0.2.2', "1 . alpn=h3,h2 port=8443 ipv4hint=192.0.2.1,192.0.2.2"],
    ["HTTPS", "1 . ipv6hint=2001:0DB8::0001 alpn=h2", "1 . alpn=h2 ipv6hint=2001:db8::1"],
    ["HTTPS", "1 . alpn=h2 no-default-alpn mandatory=port,alpn port=443", "1 . mandatory=alpn,port alpn=h2 no-default-alpn port=443"],
    ["HTTPS", "2 svc.example.net ech=AEX+/w== key65534=opaque key7", "2 svc.example.net ech=AEX+/w== key7 key65534=opaque"],
    ["SVCB", "1 svc.example.net port=8443", "1 svc.example.net port=8443"],
    ["TLSA", `3 1 1 ${SHA256}`, `3 1 1 ${SHA256.toLowerCase()}`],
    ["TLSA", `3 1 2 ${"ab".repeat(64)}`, `3 1 2 ${"ab".repeat(64)}`],
    ["TLSA", "0 0 0 30 82 01", "0 0 0 308201"],
  ] as const)("%s %j is stored as %j", (type, content, expected) => {
    expect(reading(type, content)).toBe(expected);
  });
});

describe("contents refused, with the reason", () => {
  it.each([
    ["CAA", '0 issue "letsencrypt.org" extra', /flags tag "value"/],
    ["CAA", '1 issue "letsencrypt.org"', /flags must be 0 or 128/],
    ["CAA", '256 issue "letsencrypt.org"', /flags must be 0 or 128/],
    ["CAA", '0 issuemail "example.com"', /tag must be issue, issuewild or iodef/],
    ["CAA", '0 contactemail "a@example.com"', /tag must be issue, issuewild or iodef/],
    ["CAA", '0 issue "not a domain"', /CA's domain name/],
    ["CAA", '0 issue "letsencrypt.org; bad key=x"', /CA's domain name/],
    ["CAA", '0 issue "say \\"hi\\""', /flags tag "value"/],
    ["CAA", '0 iodef "ftp://example.com/"', /mailto: address or an https: or http: URL/],
    ["CAA", '0 iodef "mailto:not-an-address"', /mailto: address/],
    ["ALIAS", "localhost", /host name for ALIAS/],
    ["ALIAS", "192.0.2.1", /not an address/],
    ["HTTPS", "1", /priority target params/],
    ["HTTPS", "65536 . alpn=h2", /priority target params/],
    ["HTTPS", "1 not_a_host alpn=h2", /priority target params/],
    ["HTTPS", "0 cdn.example.net alpn=h2", /AliasMode/],
    ["HTTPS", "1 . alpn=h2 alpn=h3", /must not be given twice/],
    ["HTTPS", "1 . port=443 key3=443", /write the SVCB parameter key3 by its name, port/],
    ["HTTPS", "1 . port=65536", /port, 0 to 65535/],
    ["HTTPS", "1 . port", /port, 0 to 65535/],
    ["HTTPS", "1 . ipv4hint=192.0.2.256", /IPv4 addresses/],
    ["HTTPS", "1 . ipv6hint=192.0.2.1", /IPv6 addresses/],
    ["HTTPS", "1 . no-default-alpn", /needs alpn/],
    ["HTTPS", "1 . no-default-alpn=x alpn=h2", /takes no value/],
    ["HTTPS", "1 . mandatory=port", /listed in mandatory/],
    ["HTTPS", "1 . mandatory=mandatory", /comma list of other keys/],
    ["HTTPS", "1 . ech=not*base64", /base64/],
    ["HTTPS", "1 . key65535=x", /is not an SVCB parameter/],
    ["HTTPS", "1 . colour=blue", /is not an SVCB parameter/],
    ["TLSA", `4 1 1 ${SHA256}`, /usage 0 to 3/],
    ["TLSA", `3 2 1 ${SHA256}`, /selector 0 or 1/],
    ["TLSA", `3 1 3 ${SHA256}`, /matching type 0 to 2/],
    ["TLSA", "3 1 1", /usage selector matching-type data/],
    ["TLSA", `3 1 1 ${SHA256}ab`, /64 hexadecimal digits/],
    ["TLSA", `3 1 2 ${SHA256}`, /128 hexadecimal digits/],
    ["TLSA", "3 1 0 abc", /even number/],
    ["TLSA", "3 1 0 xyz0", /hexadecimal digits/],
  ] as const)("%s %j: %s", (type, content, problem) => {
    const read = reading(type, content);
    expect(read).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe("names and priorities the types take", () => {
  it.each([
    ["ALIAS at the root", draft({ type: "ALIAS", content: "target.example.net" }), null],
    ["ALIAS below the root", draft({ type: "ALIAS", name: "www", content: "target.example.net" }), "name"],
    ["TLSA at a port and a protocol", draft({ type: "TLSA", name: "_443._tcp.www", content: `3 1 1 ${SHA256}` }), null],
    ["TLSA at the mail port", draft({ type: "TLSA", name: "_25._tcp", content: `3 1 1 ${SHA256}` }), null],
    ["TLSA without a port", draft({ type: "TLSA", name: "www", content: `3 1 1 ${SHA256}` }), "name"],
    ["TLSA at a port past 65535", draft({ type: "TLSA", name: "_65536._tcp", content: `3 1 1 ${SHA256}` }), "name"],
    ["TLSA at an unknown protocol", draft({ type: "TLSA", name: "_443._quic", content: `3 1 1 ${SHA256}` }), "name"],
    ["HTTPS with its priority repeated", draft({ type: "HTTPS", content: "1 . alpn=h2", priority: 1 }), null],
    ["HTTPS with another priority", draft({ type: "HTTPS", content: "1 . alpn=h2", priority: 2 }), "priority"],
    ["SVCB with another priority", draft({ type: "SVCB", name: "_8443._https", content: "1 . port=8443", priority: 0 }), "priority"],
    ["CAA with a priority", draft({ type: "CAA", content: '0 issue "letsencrypt.org"', priority: 1 }), "priority"],
  ] as const)("%s", (_why, record, field) => {
    const parsed = parseRecord(record, DOMAIN);
    expect(parsed.violations?.map((violation) => [violation.field, violation.code]) ?? null).toEqual(field && [[field, "invalid_value"]]);
  });

  it("takes the priority of HTTPS and SVCB from their content", () => {
    expect(parseRecord(draft({ type: "HTTPS", content: "3 . alpn=h2" }), DOMAIN).record?.priority).toBe(3);
    expect(parseRecord(draft({ type: "CAA", content: '0 issue "letsencrypt.org"' }), DOMAIN).record?.priority).toBeNull();
  });

  it("brings a new priority with a new content on update, as SRV does", () => {
    const stored: DnsRecordRow = {
      ...draft({ type: "HTTPS", content: "1 . alpn=h2", priority: 1 }),
      id: "rec_1",
      domainId: "dom_1",
      createdAt: new Date(0),
      updatedAt: new Date(0),
    } as DnsRecordRow;
    expect(updatedDraft(stored, { content: "2 . alpn=h3" }).priority).toBeNull();
    expect(updatedDraft(stored, { ttl: 600 }).priority).toBe(1);
    // Variant R: a new value of an HTTPS record brings its priority too.
    expect(draftFromR(mergeRPatch(stored, { value: "2 . alpn=h3" })).priority).toBeNull();
    expect(draftFromR(mergeRPatch(stored, { ttl: 600 })).priority).toBe(1);
  });
});

describe("ALIAS at the root: one, and never beside A or AAAA", () => {
  const alias = draft({ type: "ALIAS", content: "target.example.net" });
  const a = draft({ type: "A" });
  const aaaa = draft({ type: "AAAA", content: "2001:db8::1" });

  it.each([
    ["a second ALIAS", draft({ type: "ALIAS", content: "other.example.net" }), [alias], "alias_conflict"],
    ["the same ALIAS again", alias, [alias], "duplicate_record"],
    ["an ALIAS where an A is", alias, [a], "alias_conflict"],
    ["an ALIAS where an AAAA is", alias, [aaaa], "alias_conflict"],
    ["an A where an ALIAS is", a, [alias], "alias_conflict"],
    ["an AAAA where an ALIAS is", aaaa, [alias], "alias_conflict"],
    ["an MX beside an ALIAS", draft({ type: "MX", content: "mail.example.com", priority: 10 }), [alias], null],
    ["a TXT beside an ALIAS", draft({ type: "TXT", content: "v=spf1 -all" }), [alias], null],
    ["an A at www while the root has an ALIAS", draft({ name: "www" }), [alias], null],
  ] as const)("%s: %s", (_why, record, others, code) => {
    expect(recordConflict(record, others)?.code ?? null).toBe(code);
  });
});
