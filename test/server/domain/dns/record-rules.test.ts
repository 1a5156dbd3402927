import { describe, expect, it } from "vitest";
import {
  isRecordName,
  parseRecord,
  recordConflict,
  recordViolations,
  storedFields,
  updatedDraft,
  type RecordDraft,
} from "../../../../server/domain/dns/record-rules.js";
import type { DnsRecordRow } from "../../../../server/domain/dns/record-store.js";

/** The domain the drafts below are written for: 11 characters, so names of up to 241 fit under it. */
const DOMAIN = "example.com";
const draft = (overrides: Partial<RecordDraft>): RecordDraft => ({
  type: "A",
  name: "www",
  content: "203.0.113.10",
  ttl: 300,
  priority: null,
  ...overrides,
});
const violations = (overrides: Partial<RecordDraft>, domainName = DOMAIN) => recordViolations(draft(overrides), domainName);
const violatedFields = (overrides: Partial<RecordDraft>) => violations(overrides).map((v) => v.field);
const label = (n: number) => "a".repeat(n);

describe("record names", () => {
  it.each([
    ["@", true],
    ["www", true],
    ["WWW", true],
    ["a", true],
    ["mail.eu", true],
    ["xn--mnchen-3ya", true],
    ["_dmarc", true],
    ["_sip._tcp", true],
    ["fm1._domainkey", true],
    ["*", true],
    ["*.shop", true],
    ["1a", true],
    [label(63), true],
    [[label(63), label(63), label(63), label(61)].join("."), true],
    [label(64), false],
    [[label(63), label(63), label(63), label(62)].join("."), false],
    ["", false],
    ["-www", false],
    ["www-", false],
    ["a.-b", false],
    ["a-.b", false],
    ["a..b", false],
    [".www", false],
    ["www.", false],
    ["w_w", false],
    ["__x", false],
    ["www.*", false],
    ["*.*", false],
    ["@.www", false],
    ["wéb", false],
    ["a b", false],
    ["a/b", false],
    // An xn-- label must be the A-label of a name IDNA2008 allows: xn--e28h is "😀", xn--n3h "☃".
    ["xn--e28h", false],
    ["shop.xn--n3h", false],
    ["XN--MNCHEN-3YA", true],
    ["xn--", false],
    ["xn--zzzzzz-9999", false],
  ])("%j is a valid record name: %s", (name, expected) => {
    expect(isRecordName(name)).toBe(expected);
  });
});

describe("the full name: name and domain together at most 253 characters (RFC 1035 2.3.4)", () => {
  const nameOf = (length: number) => [label(63), label(63), label(63), label(length - 192)].join(".");

  it.each([
    [241, "example.com", []],
    [242, "example.com", ["name"]],
    [237, "adalovelace.com", []],
    [238, "adalovelace.com", ["name"]],
    [253, "example.com", ["name"]],
  ])("a name of %i characters under %s violates %j", (length, domainName, fields) => {
    expect(violations({ name: nameOf(length) }, domainName).map((v) => v.field)).toEqual(fields);
  });

  it("lets the root (@) stand for the domain's own name", () => {
    expect(violations({ name: "@" }, `${label(63)}.${label(63)}.${label(63)}.${label(61)}`)).toEqual([]);
  });

  it("names the bound and what is left for names under the domain", () => {
    expect(violations({ name: nameOf(242) })).toEqual([
      {
        field: "name",
        code: "too_long",
        message: "name and the domain together must be at most 253 characters (RFC 1035); under example.com a name has at most 241",
      },
    ]);
  });

  it("reports a name that is not a name as such, not as too long", () => {
    expect(violations({ name: `-${nameOf(250)}` })).toEqual([expect.objectContaining({ field: "name", code: "invalid_format" })]);
  });
});

describe("ttl", () => {
  it.each([
    [59, ["ttl"]],
    [60, []],
    [3600, []],
    [86400, []],
    [86401, ["ttl"]],
    [0, ["ttl"]],
    [-60, ["ttl"]],
    [300.5, ["ttl"]],
  ])("ttl %j violates %j", (ttl, fields) => {
    expect(violatedFields({ ttl })).toEqual(fields);
  });
});

describe("content by type", () => {
  it.each([
    ["CNAME", "xn--mnchen-3ya.de", true],
    ["CNAME", "xn--e28h.example.com", false],
    ["MX", "mail.xn--n3h.com", false],
    ["NS", "ns1.xn--e28h.net", false],
    ["SRV", "10 60 5060 xn--e28h.example.com", false],
    ["A", "203.0.113.10", true],
    ["A", "0.0.0.0", true],
    ["A", "255.255.255.255", true],
    ["A", "256.1.1.1", false],
    ["A", "1.2.3", false],
    ["A", "01.2.3.4", false],
    ["A", "::1", false],
    ["A", "example.com", false],
    ["A", " 1.2.3.4", false],
    ["AAAA", "2001:db8::1", true],
    ["AAAA", "2001:0db8:0000:0000:0000:0000:0000:0001", true],
    ["AAAA", "::1", true],
    ["AAAA", "::", true],
    ["AAAA", "::ffff:192.0.2.1", false],
    ["AAAA", "::ffff:c000:201", false],
    ["AAAA", "0:0:0:0:0:ffff:c000:201", false],
    ["AAAA", "::192.0.2.1", false],
    ["AAAA", "::c000:201", false],
    ["AAAA", "64:ff9b::192.0.2.1", true],
    ["AAAA", "fe80::1%eth0", false],
    ["AAAA", "fe80::1%25", false],
    ["AAAA", "2001:db8::00001", false],
    ["AAAA", "::ffff:01.2.3.4", false],
    ["AAAA", "::ffff:0x7f.0.0.1", false],
    ["AAAA", "2001:db8::1::2", false],
    ["AAAA", "2001:db8:g::1", false],
    ["AAAA", "203.0.113.10", false],
    ["CNAME", "target.example.com", true],
    ["CNAME", "target.example.com.", true],
    ["CNAME", "localhost", false],
    ["CNAME", "-bad.example.com", false],
    ["CNAME", "bad_host.example.com", false],
    ["CNAME", "203.0.113.10 extra", false],
    ["MX", "mail.example.com", true],
    ["MX", "mail", false],
    ["MX", "mail..example.com", false],
    ["NS", "ns1.example.net", true],
    ["NS", "ns1", false],
    ["SRV", "10 60 5060 sip.example.com", true],
    ["SRV", "0 0 0 .", true],
    ["SRV", "10 60 65535 sip.example.com", true],
    ["SRV", "10 60 65536 sip.example.com", false],
    ["SRV", "10 60 5060", false],
    ["SRV", "10 60 5060 sip.example.com extra", false],
    ["SRV", "-1 60 5060 sip.example.com", false],
    ["SRV", "a b c d", false],
    ["SRV", "10 60 5060 not_a_host", false],
    ["TXT", "v=spf1 include:_spf.google.com ~all", true],
    ["TXT", "x".repeat(255), true],
    ["TXT", "x".repeat(256), false],
    ["TXT", `"${"x".repeat(255)}" "${"y".repeat(255)}"`, true],
    ["TXT", `"${"x".repeat(256)}" "y"`, false],
    ["TXT", `"with \\"escaped\\" quotes"`, true],
    ["TXT", '""', true],
  ] as const)("%s content %j is valid: %s", (type, content, expected) => {
    const priority = type === "MX" ? 10 : null;
    expect(violatedFields({ type, content, priority }).includes("content")).toBe(!expected);
  });
});

describe("rules across fields", () => {
  it("refuses a CNAME at the root", () => {
    expect(violations({ type: "CNAME", name: "@", content: "example.net" })).toEqual([
      { field: "name", code: "invalid_value", message: "a CNAME record cannot be created for the root (@)" },
    ]);
  });

  it("requires priority for MX records, naming the rule", () => {
    expect(violations({ type: "MX", content: "mail.example.com" })).toEqual([
      { field: "priority", code: "missing_required_field", message: "priority is required for MX records" },
    ]);
  });

  it.each([
    [{ type: "MX", content: "mail.example.com", priority: 0 } as const, []],
    [{ type: "MX", content: "mail.example.com", priority: 65535 } as const, []],
    [{ type: "SRV", content: "10 60 5060 sip.example.com", priority: null } as const, []],
    [{ type: "SRV", content: "10 60 5060 sip.example.com", priority: 10 } as const, []],
    [{ type: "SRV", content: "10 60 5060 sip.example.com", priority: 20 } as const, ["priority"]],
    [{ type: "A", priority: 10 } as const, ["priority"]],
    [{ type: "TXT", content: "hello", priority: 0 } as const, ["priority"]],
  ])("checks priority of %j", (overrides, fields) => {
    expect(violatedFields(overrides)).toEqual(fields);
  });

  it("stores MX priority as given, SRV priority from content, and null otherwise", () => {
    const priority = (overrides: Partial<RecordDraft>) => parseRecord(draft(overrides), DOMAIN).record?.priority;
    expect(priority({ type: "MX", content: "mail.example.com", priority: 5 })).toBe(5);
    expect(priority({ type: "SRV", content: "7 1 443 svc.example.com" })).toBe(7);
    expect(priority({ type: "A" })).toBeNull();
  });

  it("reports every violation, not only the first", () => {
    expect(violatedFields({ name: "-x", ttl: 10, content: "nope" })).toEqual(["name", "ttl", "content"]);
  });
});

describe("zone conflicts (RFC 1034 3.6.2, RFC 2181 10.1)", () => {
  const a = draft({ type: "A", name: "www", content: "203.0.113.10" });
  const cname = draft({ type: "CNAME", name: "www", content: "example.net" });

  it.each([
    ["an identical record", a, [a], "duplicate_record"],
    ["an identical record written in another case", draft({ name: "WWW" }), [a], "duplicate_record"],
    ["a CNAME beside an A record", cname, [a], "cname_conflict"],
    ["an A record beside a CNAME", a, [cname], "cname_conflict"],
    ["a second CNAME on the name", draft({ type: "CNAME", name: "www", content: "other.example.net" }), [cname], "cname_conflict"],
    [
      "an MX with the same host at another priority",
      draft({ type: "MX", name: "@", content: "mail.example.com", priority: 20 }),
      [draft({ type: "MX", name: "@", content: "mail.example.com.", priority: 10 })],
      "duplicate_record",
    ],
    [
      "an AAAA address in its long spelling",
      draft({ type: "AAAA", content: "2001:0db8:0:0:0:0:0:1" }),
      [draft({ type: "AAAA", content: "2001:db8::1" })],
      "duplicate_record",
    ],
    [
      "a TXT text in quotes beside the same text unquoted",
      draft({ type: "TXT", content: '"hello"' }),
      [draft({ type: "TXT", content: "hello" })],
      "duplicate_record",
    ],
    [
      "TXT strings spaced differently",
      draft({ type: "TXT", content: '"a"   "b"' }),
      [draft({ type: "TXT", content: '"a" "b"' })],
      "duplicate_record",
    ],
    [
      "SRV parts spaced differently",
      draft({ type: "SRV", name: "_sip._tcp", content: "10  60 5060  sip.example.com" }),
      [draft({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" })],
      "duplicate_record",
    ],
    [
      "SRV numbers with leading zeros",
      draft({ type: "SRV", name: "_sip._tcp", content: "010 060 05060 sip.example.com" }),
      [draft({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com" })],
      "duplicate_record",
    ],
  ])("refuses %s", (_label, candidate, others, code) => {
    expect(recordConflict(candidate, others)?.code).toBe(code);
  });

  it.each([
    ["a second A record with another address", draft({ content: "203.0.113.11" }), [a]],
    ["a CNAME on another name", draft({ type: "CNAME", name: "blog", content: "example.net" }), [a]],
    [
      "TXT records differing only in case",
      draft({ type: "TXT", name: "@", content: "ABC" }),
      [draft({ type: "TXT", name: "@", content: "abc" })],
    ],
    [
      "a TXT text split into two strings beside the same text whole",
      draft({ type: "TXT", name: "@", content: '"ab" "c"' }),
      [draft({ type: "TXT", name: "@", content: "abc" })],
    ],
    [
      "a TXT text that is a quoted string beside one whose quotes are its text",
      draft({ type: "TXT", name: "@", content: '"\\"hi\\""' }),
      [draft({ type: "TXT", name: "@", content: "hi" })],
    ],
    ["a record in an empty zone", a, []],
  ])("accepts %s", (_label, candidate, others) => {
    expect(recordConflict(candidate, others)).toBeNull();
  });
});

describe("the parsed record: what is compared and stored", () => {
  const stored = (overrides: Partial<RecordDraft>) => storedFields(parseRecord(draft(overrides), DOMAIN).record!);

  it("writes the name in lower case and the content in its type's one spelling", () => {
    expect(stored({ type: "SRV", name: "_SIP._TCP", content: " 10 60  5060 SIP.Example.com. " })).toEqual(
      draft({ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", priority: 10 }),
    );
  });

  it("takes the priority from the rules: MX's own, null for types without one", () => {
    expect(stored({ type: "MX", content: "Mail.Example.com.", priority: 5 })).toMatchObject({ content: "mail.example.com", priority: 5 });
    expect(stored({ type: "A" }).priority).toBeNull();
  });

  it("carries the content's parts and the name as written, for messages", () => {
    const { record } = parseRecord(draft({ type: "SRV", name: "_SIP._tcp", content: "10 60 5060 sip.example.com" }), DOMAIN);
    expect(record).toMatchObject({
      spelledName: "_SIP._tcp",
      srv: { priority: 10, weight: 60, port: 5060, target: "sip.example.com" },
    });
    expect(parseRecord(draft({ type: "TXT", content: '"v=spf1" " -all"' }), DOMAIN).record).toMatchObject({
      strings: ["v=spf1", " -all"],
      mailPolicy: "spf",
    });
  });

  it("answers the violations instead of a record when a rule is broken", () => {
    expect(parseRecord(draft({ ttl: 10 }), DOMAIN)).toEqual({ violations: recordViolations(draft({ ttl: 10 }), DOMAIN) });
  });
});

describe("an update over a stored record", () => {
  const row = (overrides: Partial<DnsRecordRow>): DnsRecordRow => ({
    id: "rec_1",
    domainId: "dom_1",
    type: "SRV",
    name: "_sip._tcp",
    content: "10 60 5060 sip.example.com",
    ttl: 300,
    priority: 10,
    comment: null,
    locked: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  });

  it.each([
    ["an SRV's new content brings its own priority", row({}), { content: "20 60 5060 sip.example.com" }, null],
    ["an SRV's priority given with new content is kept", row({}), { content: "20 60 5060 sip.example.com", priority: 20 }, 20],
    ["an SRV without new content keeps its priority", row({}), { ttl: 600 }, 10],
    [
      "an MX's new content keeps its priority",
      row({ type: "MX", content: "mail.example.com", priority: 5 }),
      { content: "mx.example.com" },
      5,
    ],
  ] as const)("%s", (_label, before, change, priority) => {
    expect(updatedDraft(before, change).priority).toBe(priority);
  });

  it("takes each field given and keeps the others", () => {
    expect(updatedDraft(row({}), { ttl: 600 })).toEqual({
      type: "SRV",
      name: "_sip._tcp",
      content: "10 60 5060 sip.example.com",
      ttl: 600,
      priority: 10,
    });
  });
});
