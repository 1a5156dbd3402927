/** The zone file reader, rule by rule (RFC 1035 5, RFC 2308, RFC 3597, BIND's extensions). */
import { describe, expect, it } from "vitest";
import { readZoneFile } from "../../../../server/domain/zone-files/zone-file.js";
import { MAX_ZONE_FILE_CHARACTERS, MAX_ZONE_FILE_LINES } from "../../../../server/domain/zone-files/zone-reader.js";

const NAMESERVERS = ["ns1.service.test", "ns2.service.test"];
const read = (text: string, domain = "example.com") => readZoneFile(text, domain, NAMESERVERS);
/** The one record a text gives, with nothing skipped and no problem. */
const only = (text: string) => {
  const zone = read(text);
  expect(zone.problems).toEqual([]);
  expect(zone.skipped).toEqual([]);
  expect(zone.records).toHaveLength(1);
  return zone.records[0]!;
};
const problemsOf = (text: string) => read(text).problems.map(({ line, code }) => ({ line, code }));

describe("names", () => {
  it.each([
    ["www 300 A 192.0.2.1", "www"],
    ["@ 300 A 192.0.2.1", "@"],
    ["example.com. 300 A 192.0.2.1", "@"],
    ["EXAMPLE.COM. 300 A 192.0.2.1", "@"],
    ["WWW.Example.Com. 300 A 192.0.2.1", "www"],
    ["a.b.c 300 A 192.0.2.1", "a.b.c"],
    ["*.wild 300 A 192.0.2.1", "*.wild"],
    ["_dmarc 300 TXT v=DMARC1", "_dmarc"],
    ["xn--bcher-kva 300 A 192.0.2.1", "xn--bcher-kva"],
    ["bücher 300 A 192.0.2.1", "xn--bcher-kva"],
    ["b\\195\\188cher 300 A 192.0.2.1", "xn--bcher-kva"],
    ["\\119ww 300 A 192.0.2.1", "www"],
    ["$ORIGIN sub.example.com.\nhost 300 A 192.0.2.1", "host.sub"],
    ["$ORIGIN sub\nhost 300 A 192.0.2.1", "host.sub"],
    ["$ORIGIN sub.example.com.\n@ 300 A 192.0.2.1", "sub"],
    ["$ORIGIN example.com.\n$ORIGIN a\n$ORIGIN b\nc 300 A 192.0.2.1", "c.b.a"],
  ])("reads the owner of %j as %j", (text, name) => {
    expect(only(text).name).toBe(name);
  });

  it("gives a blank owner the previous record's owner", () => {
    const zone = read("www 300 A 192.0.2.1\n  300 AAAA 2001:db8::1\n\t300 TXT x");
    expect(zone.records.map((record) => record.name)).toEqual(["www", "www", "www"]);
  });

  it.each([
    ["other.com. 300 A 192.0.2.1", 1],
    ["www.example.com.evil. 300 A 192.0.2.1", 1],
    ["com. 300 A 192.0.2.1", 1],
    ["notexample.com. 300 A 192.0.2.1", 1],
  ])("refuses the owner of %j as outside the zone", (text, line) => {
    expect(problemsOf(text)).toEqual([{ line, code: "outside_zone" }]);
  });

  it("refuses an $ORIGIN outside the zone and every relative record under it", () => {
    expect(problemsOf("$ORIGIN other.org.\nwww 300 A 192.0.2.1\n@ 300 A 192.0.2.2\nexample.com. 300 A 192.0.2.3")).toEqual([
      { line: 1, code: "outside_zone" },
      { line: 2, code: "outside_zone" },
      { line: 3, code: "outside_zone" },
    ]);
    expect(read("$ORIGIN other.org.\nexample.com. 300 A 192.0.2.3").records).toHaveLength(1);
  });

  it.each([
    ["$ORIGIN .\nwww.example.com 300 A 192.0.2.1", "www"],
    ["$ORIGIN com.\nexample 300 A 192.0.2.1", "@"],
  ])("takes an $ORIGIN above the domain, as BIND writes it, in %j", (text, name) => {
    expect(only(text).name).toBe(name);
  });

  it.each([
    ["a..b 300 A 192.0.2.1", "invalid_name"],
    [`${"a".repeat(64)} 300 A 192.0.2.1`, "invalid_name"],
    [`${Array(60).fill("abcd").join(".")} 300 A 192.0.2.1`, "invalid_name"],
    ["a\\.b 300 A 192.0.2.1", "invalid_name"],
    ["a\\999 300 A 192.0.2.1", "invalid_name"],
    ["  300 A 192.0.2.1", "syntax_error"],
  ])("refuses %j with %s", (text, code) => {
    expect(problemsOf(text)).toEqual([{ line: 1, code }]);
  });
});

describe("TTL and class", () => {
  it.each([
    ["www 300 IN A 192.0.2.1", 300],
    ["www IN 300 A 192.0.2.1", 300],
    ["www 300 A 192.0.2.1", 300],
    ["www 1h30m A 192.0.2.1", 5400],
    ["www 1W A 192.0.2.1", 604800],
    ["www 2d3h4m5s IN A 192.0.2.1", 183845],
    ["www 0 A 192.0.2.1", 0],
    ["$TTL 1h\nwww A 192.0.2.1", 3600],
    ["$TTL 1h\nwww IN A 192.0.2.1", 3600],
    ["$TTL 1h\nwww 60 A 192.0.2.1", 60],
    ["$TTL 3600\na 60 A 192.0.2.1\nb A 192.0.2.2", 3600],
    ["www CLASS1 300 A 192.0.2.1", 300],
    ["www in 300 a 192.0.2.1", 300],
  ])("reads the TTL of %j as %d", (text, ttl) => {
    const zone = read(text);
    expect(zone.problems).toEqual([]);
    expect(zone.records.at(-1)!.ttl).toBe(ttl);
  });

  it("without $TTL, gives a record the last TTL stated before it (BIND)", () => {
    const zone = read("a 120 A 192.0.2.1\nb A 192.0.2.2\nc 60 A 192.0.2.3\nd A 192.0.2.4");
    expect(zone.records.map((record) => record.ttl)).toEqual([120, 120, 60, 60]);
  });

  it("without $TTL or any TTL before, gives the SOA its minimum and the records after it that TTL", () => {
    const zone = read("@ IN SOA ns1.service.test. host.service.test. 1 7200 3600 1209600 900\nwww A 192.0.2.1");
    expect(zone.records[0]!.ttl).toBe(900);
  });

  it("without any TTL in the file, gives the service's default", () => {
    expect(only("www A 192.0.2.1").ttl).toBe(300);
  });

  it.each([
    ["www 1x A 192.0.2.1", "invalid_ttl"],
    ["www 2147483648 A 192.0.2.1", "invalid_ttl"],
    ["www 1h30 A 192.0.2.1", "invalid_ttl"],
    ["$TTL forever", "invalid_ttl"],
    ["$TTL", "invalid_ttl"],
    ["www CH A 192.0.2.1", "unsupported_class"],
    ["www 300 HS TXT x", "unsupported_class"],
    ["www CLASS3 A 192.0.2.1", "unsupported_class"],
    ["www 300 IN", "syntax_error"],
    ['www 300 IN "A" 192.0.2.1', "syntax_error"],
  ])("refuses %j with %s", (text, code) => {
    expect(problemsOf(text)).toEqual([{ line: 1, code }]);
  });
});

describe("directives", () => {
  it.each([
    ["$INCLUDE other.zone", "include_not_supported"],
    ["$include other.zone example.com.", "include_not_supported"],
    ["$GENERATE 1-10 host$ A 192.0.2.$", "include_not_supported"],
    ["$DATE 20260101", "unknown_directive"],
    ["$ORIGIN", "syntax_error"],
    ["$ORIGIN a..b", "invalid_name"],
  ])("answers %j with %s on its line", (text, code) => {
    expect(problemsOf(`www 300 A 192.0.2.1\n${text}\nmail 300 A 192.0.2.2`)).toEqual([{ line: 2, code }]);
    expect(read(`www 300 A 192.0.2.1\n${text}\nmail 300 A 192.0.2.2`).records).toHaveLength(2);
  });
});

describe("lines, parentheses, comments and quotes", () => {
  it("reads an entry over several lines in parentheses, with comments inside, at its first line", () => {
    const zone = read(
      "\n; a comment line\nwww 300 A 192.0.2.1 ; trailing\n_443._tcp 300 TLSA ( 3 1 1 ; usage selector type\n  aabb ; first half\n  ccdd )\nnext 300 A 192.0.2.2",
    );
    expect(zone.problems).toEqual([]);
    expect(zone.records.map(({ line, name, content }) => ({ line, name, content }))).toEqual([
      { line: 3, name: "www", content: "192.0.2.1" },
      { line: 4, name: "_443._tcp", content: "3 1 1 aabbccdd" },
      { line: 7, name: "next", content: "192.0.2.2" },
    ]);
  });

  it("reads CRLF line ends, tabs and odd spacing", () => {
    const zone = read('www\t\t300  IN\tA   192.0.2.1\r\n\r\n  \t 300 TXT  "x"\r\nmail 300 MX 10 mx.example.net.\r\n');
    expect(zone.problems).toEqual([]);
    expect(zone.records.map(({ line, name }) => [line, name])).toEqual([
      [1, "www"],
      [3, "www"],
      [4, "mail"],
    ]);
  });

  it.each([
    ['t 300 TXT "a ; b"', "a ; b"],
    ['t 300 TXT "a ( b )"', "a ( b )"],
    ['t 300 TXT "say \\"hi\\""', 'say "hi"'],
    ['t 300 TXT "back\\\\slash"', "back\\slash"],
    ['t 300 TXT "\\065\\066C"', "ABC"],
    ['t 300 TXT "caf\\195\\169"', "café"],
    ['t 300 TXT "café"', "café"],
    ["t 300 TXT unquoted", "unquoted"],
    ["t 300 TXT un\\;quoted", "un;quoted"],
    ['t 300 TXT ""', '""'],
  ])("reads the character-string %j", (text, content) => {
    const record = only(text);
    expect(record.content === content || record.content === `"${content.replace(/["\\]/g, "\\$&")}"`).toBe(true);
  });

  it("joins a TXT record's several strings as the service stores them", () => {
    expect(only('t 300 TXT "v=spf1 " "-all"').content).toBe('"v=spf1 " "-all"');
    expect(only('t 300 TXT ( "part one"\n "part two" )').content).toBe('"part one" "part two"');
    expect(only('t 300 TXT "a\\"b" c').content).toBe('"a\\"b" "c"');
  });

  it.each([
    ['t 300 TXT "not closed\nnext 300 A 192.0.2.1', [{ line: 1, code: "syntax_error" }], 1],
    ["www 300 A ( 192.0.2.1\nnext 300 A 192.0.2.2", [{ line: 1, code: "syntax_error" }], 0],
    ["www 300 A 192.0.2.1 )\nnext 300 A 192.0.2.2", [{ line: 1, code: "syntax_error" }], 1],
    ['t 300 TXT "\\300"', [{ line: 1, code: "invalid_rdata" }], 0],
    ['t 300 TXT "\\1x"', [{ line: 1, code: "invalid_rdata" }], 0],
    ['t 300 TXT "\\255"', [{ line: 1, code: "invalid_rdata" }], 0],
    [`t 300 TXT "${"a".repeat(256)}"`, [{ line: 1, code: "invalid_rdata" }], 0],
  ])("reports %j and reads on", (text, problems, records) => {
    const zone = read(text);
    expect(zone.problems.map(({ line, code }) => ({ line, code }))).toEqual(problems);
    expect(zone.records).toHaveLength(records);
  });
});

describe("RDATA per type, in the service's content form", () => {
  it.each([
    ["@ 300 A 192.0.2.1", "A", "192.0.2.1", null],
    ["@ 300 AAAA 2001:DB8::1", "AAAA", "2001:DB8::1", null],
    ["www 300 CNAME @", "CNAME", "example.com", null],
    ["www 300 CNAME web", "CNAME", "web.example.com", null],
    ["www 300 CNAME Web.Example.NET.", "CNAME", "web.example.net", null],
    ["@ 300 MX 10 mail", "MX", "mail.example.com", 10],
    ["@ 300 MX 0 mx.example.net.", "MX", "mx.example.net", 0],
    ["_sip._tcp 300 SRV 10 60 5060 sip.example.net.", "SRV", "10 60 5060 sip.example.net", 10],
    ["_sip._tcp 300 SRV 0 0 0 .", "SRV", "0 0 0 .", 0],
    ["sub 300 NS ns1.other.net.", "NS", "ns1.other.net", null],
    ['@ 300 CAA 0 issue "letsencrypt.org"', "CAA", '0 issue "letsencrypt.org"', null],
    ['@ 300 CAA 128 ISSUEWILD ";"', "CAA", '128 issuewild ";"', null],
    ['@ 300 HTTPS 1 . alpn="h2,h3" port=443', "HTTPS", "1 . alpn=h2,h3 port=443", 1],
    ["@ 300 HTTPS 0 cdn.example.net.", "HTTPS", "0 cdn.example.net", 0],
    [
      "_svc 300 SVCB 2 svc ipv4hint=192.0.2.1 no-default-alpn alpn=h2",
      "SVCB",
      "2 svc.example.com ipv4hint=192.0.2.1 no-default-alpn alpn=h2",
      2,
    ],
    ["_443._tcp 300 TLSA 3 1 1 AABB CCDD", "TLSA", "3 1 1 aabbccdd", null],
    ["@ 300 ALIAS lb.example.net.", "ALIAS", "lb.example.net", null],
    ["@ 300 TYPE65401 \\# 16 026c62076578616d706c65036e657400", "ALIAS", "lb.example.net", null],
    ["@ 300 TYPE1 \\# 4 C0000201", "A", "192.0.2.1", null],
    ["@ 300 A \\# 4 c0000201", "A", "192.0.2.1", null],
    ["@ 300 TYPE28 \\# 16 20010db8000000000000000000000001", "AAAA", "2001:db8:0:0:0:0:0:1", null],
    ["@ 300 TYPE15 \\# 6 000a026d7800", "MX", "mx", 10],
    ["t 300 TYPE16 \\# 4 03616263", "TXT", "abc", null],
  ])("reads %j", (text, type, content, priority) => {
    expect(only(text)).toMatchObject({ type, content, priority });
  });

  it.each([
    "@ 300 A",
    "@ 300 A 192.0.2.1 192.0.2.2",
    "@ 300 MX mail",
    "@ 300 MX 70000 mail",
    "@ 300 MX 10",
    "_s._tcp 300 SRV 1 2 3",
    "_s._tcp 300 SRV a b c d.",
    "@ 300 CAA issue letsencrypt.org",
    "@ 300 CAA 0 issue",
    "_443._tcp 300 TLSA 3 1 1 xyz",
    "@ 300 HTTPS x .",
    "@ 300 TYPE1 \\# 5 c0000201",
    "@ 300 TYPE1 \\# 4 c00002",
    "@ 300 TYPE257 \\# 3 000000",
    "www 300 CNAME a..b",
    "t 300 TXT",
  ])("refuses the RDATA of %j", (text) => {
    expect(read(text).problems.map(({ code }) => code)).toEqual([expect.stringMatching(/^invalid_(rdata|name)$/)]);
  });
});

describe("records the service does not take", () => {
  it.each([
    ["@ 3600 IN SOA ns1.service.test. hostmaster.service.test. ( 1 7200 3600 1209600 300 )", "SOA", "soa"],
    ["@ 3600 IN NS ns1.service.test.", "NS", "service_nameservers"],
    ["@ 3600 IN NS NS2.SERVICE.TEST.", "NS", "service_nameservers"],
    ["@ 3600 IN NS ns1.elsewhere.net.", "NS", "service_nameservers"],
    ["1 300 PTR host.example.com.", "PTR", "unsupported_type"],
    ['@ 300 NAPTR 100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .', "NAPTR", "unsupported_type"],
    ["@ 300 SSHFP 1 1 123456789abcdef67890123456789abcdef67890", "SSHFP", "unsupported_type"],
    ["old 300 DNAME new.example.net.", "DNAME", "unsupported_type"],
    ['@ 300 SPF "v=spf1 -all"', "SPF", "unsupported_type"],
    ["@ 300 DS 12345 13 2 abcdef", "DS", "unsupported_type"],
    ["@ 300 TYPE999 \\# 0", "TYPE999", "unsupported_type"],
    ["@ 300 FOO bar", "FOO", "unsupported_type"],
    ["@ 86400 AWS ALIAS A lb.example.net. Z32O12XQLNTSW2 false", "AWS", "unsupported_type"],
  ])("skips %j as %s with reason %s", (text, type, reason) => {
    const zone = read(text);
    expect(zone.problems).toEqual([]);
    expect(zone.records).toEqual([]);
    expect(zone.skipped).toEqual([
      { line: 1, name: "@" === text[0] ? "@" : text.split(" ")[0], type, reason, message: expect.any(String) },
    ]);
  });

  it("keeps a delegation below the apex as a record", () => {
    expect(only("sub 300 NS ns1.service.test.")).toMatchObject({ name: "sub", type: "NS" });
  });
});

describe("bounds and robustness", () => {
  it("refuses a file over its size bound whole", () => {
    const zone = read("x 300 A 192.0.2.1\n".repeat(Math.ceil(MAX_ZONE_FILE_CHARACTERS / 18) + 1));
    expect(zone.records).toEqual([]);
    expect(zone.problems).toEqual([{ line: 1, code: "too_large", message: expect.any(String) }]);
  });

  it("refuses a file over its line bound whole", () => {
    expect(problemsOf("\n".repeat(MAX_ZONE_FILE_LINES + 1))).toEqual([{ line: 1, code: "too_large" }]);
  });

  it("reads an empty file as an empty zone", () => {
    expect(read("")).toEqual({ origin: "example.com", records: [], skipped: [], problems: [] });
  });

  it("answers for the domain in lower case without its trailing dot", () => {
    expect(read("www 300 A 192.0.2.1", "Example.COM.")).toMatchObject({ origin: "example.com", records: [{ name: "www" }] });
  });
});
