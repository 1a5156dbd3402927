/** The content of a record per type: whether it has its type's form, and the one spelling it is stored and compared in. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHostName, parseSrv, readContent, txtStrings } from "../../../../server/domain/dns/record-content.js";

const canonical = (type: Parameters<typeof readContent>[0], content: string) => {
  const reading = readContent(type, content);
  return "canonical" in reading ? reading.canonical : null;
};
const label = (n: number) => "a".repeat(n);

describe("the canonical spelling of each type", () => {
  it.each([
    ["A", "203.0.113.10", "203.0.113.10"],
    ["A", "0.0.0.0", "0.0.0.0"],
    ["AAAA", "2001:db8::1", "2001:db8::1"],
    ["AAAA", "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["AAAA", "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["AAAA", "2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["AAAA", "2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["AAAA", "0:0:0:0:0:0:0:0", "::"],
    ["AAAA", "0:0:0:0:0:0:0:1", "::1"],
    ["AAAA", "64:ff9b::192.0.2.1", "64:ff9b::c000:201"],
    ["AAAA", "::ffff:0:192.0.2.1", "::ffff:0:c000:201"],
    // RFC 4291 2.5.5.1 reads `::` and then 32 bits: ::0.0.0.1 is the loopback address, not an IPv4-mapped one.
    ["AAAA", "::0.0.0.1", "::1"],
    ["CNAME", "Target.Example.NET.", "target.example.net"],
    ["MX", "mail.example.com", "mail.example.com"],
    ["NS", "NS1.example.net.", "ns1.example.net"],
    ["SRV", "10 60 5060 sip.example.com", "10 60 5060 sip.example.com"],
    ["SRV", "  10\t60   5060 SIP.example.com.  ", "10 60 5060 sip.example.com"],
    ["SRV", "010 00060 05060 sip.example.com", "10 60 5060 sip.example.com"],
    ["SRV", "0 0 0 .", "0 0 0 ."],
    ["TXT", "v=spf1 -all", "v=spf1 -all"],
    ["TXT", '"v=spf1 -all"', "v=spf1 -all"],
    ["TXT", '"part one"   "part two"', '"part one" "part two"'],
    ["TXT", '"say \\"hi\\""', 'say "hi"'],
    ["TXT", 'say "hi"', 'say "hi"'],
    ["TXT", '"a\\\\b"', "a\\b"],
    ["TXT", '"\\"a\\" \\"b\\""', '"\\"a\\" \\"b\\""'],
    ["TXT", '""', '""'],
    ["TXT", " padded ", " padded "],
    ["TXT", "Case Kept", "Case Kept"],
  ] as const)("%s %j is stored as %j", (type, content, expected) => {
    expect(canonical(type, content)).toBe(expected);
  });
});

describe("contents refused, with the reason", () => {
  it.each([
    ["A", "01.2.3.4", "content must be a valid IPv4 address for A records"],
    ["A", "127.1", "content must be a valid IPv4 address for A records"],
    [
      "AAAA",
      "fe80::1%eth0",
      "content must not carry a zone index (%...): it names a network interface of one host and means nothing in the DNS",
    ],
    [
      "AAAA",
      "::ffff:c000:201",
      "content must be an IPv6 address: IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses carry an IPv4 address, which belongs in an A record",
    ],
    [
      "AAAA",
      "::192.0.2.1",
      "content must be an IPv6 address: IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses carry an IPv4 address, which belongs in an A record",
    ],
    ["AAAA", "1::2::3", "content must be a valid IPv6 address for AAAA records"],
    ["SRV", "10 60 5060", "content must be 'priority weight port target' for SRV records, numbers 0 to 65535"],
    ["TXT", "x".repeat(256), "each TXT string must be at most 255 characters; give longer text as several quoted strings"],
  ] as const)("%s %j: %s", (type, content, problem) => {
    expect(readContent(type, content)).toEqual({ problem });
  });
});

describe("IPv6 addresses", () => {
  it("reads every spelling fast-check makes, and stores a spelling that reads back as itself", () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const stored = canonical("AAAA", address);
        if (stored === null) return;
        expect(stored).toBe(stored.toLowerCase());
        expect(canonical("AAAA", stored)).toBe(stored);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("TXT strings", () => {
  it("reads a value made only of quoted strings as those strings, anything else as one string", () => {
    expect(txtStrings('"a b" "c"')).toEqual(["a b", "c"]);
    expect(txtStrings('"a \\"b\\"" "c\\\\"')).toEqual(['a "b"', "c\\"]);
    expect(txtStrings("a b c")).toEqual(["a b c"]);
    expect(txtStrings('"a" b')).toEqual(['"a" b']);
  });

  it("stores a text that reads back as the same strings, and stores it again unchanged", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^("([^"\\]|\\.)*" ?){1,3}$/),
      fc.constantFrom('"', '""', "\\", '"a" "b"', ' "a" '),
    );
    fc.assert(
      fc.property(text, (content) => {
        const stored = canonical("TXT", content);
        if (stored === null) return;
        expect(txtStrings(stored)).toEqual(txtStrings(content));
        expect(canonical("TXT", stored)).toBe(stored);
      }),
      { numRuns: 500 },
    );
  });
});

describe("SRV parts", () => {
  it("parses SRV content into its four parts, the target canonical", () => {
    expect(parseSrv("10 60 5060 SIP.example.com.")).toEqual({ priority: 10, weight: 60, port: 5060, target: "sip.example.com" });
    expect(parseSrv("10 60 5060")).toBeNull();
  });
});

describe("host names", () => {
  it("need at least two labels of at most 63 characters", () => {
    expect(isHostName("example.com")).toBe(true);
    expect(isHostName("example")).toBe(false);
    expect(isHostName(`${label(63)}.com`)).toBe(true);
    expect(isHostName(`${label(64)}.com`)).toBe(false);
  });
});
