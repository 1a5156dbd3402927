/** The zone file writer: the text an export gives, line by line. */
import { describe, expect, it } from "vitest";
import { readZoneFile, writeZoneFile } from "../../../../server/domain/zone-files/zone-file.js";
import { EXPORT_OPTIONS, SERVICE_NAMESERVERS, stored, ZONE_STORES } from "./support/zone-stores.js";

const recordLines = (text: string) => text.split("\n").slice(5, -1);

describe("writeZoneFile", () => {
  it("starts with $ORIGIN, $TTL, the SOA and the service's nameservers", () => {
    expect(writeZoneFile("Example.COM", [], EXPORT_OPTIONS)).toBe(
      [
        "$ORIGIN example.com.",
        "$TTL 300",
        "@\t300\tIN\tSOA\tns1.service.test. hostmaster.service.test. 2026112601 86400 7200 3600000 3600",
        "@\t300\tIN\tNS\tns1.service.test.",
        "@\t300\tIN\tNS\tns2.service.test.",
        "",
      ].join("\n"),
    );
  });

  it("writes a hostmaster mailbox with dots in its local part escaped (RFC 1035 8)", () => {
    expect(writeZoneFile("example.com", [], { ...EXPORT_OPTIONS, hostmaster: "dns.admin@example.net" })).toContain(
      "SOA\tns1.service.test. dns\\.admin.example.net. ",
    );
  });

  it.each([
    [{ type: "A", content: "192.0.2.1" }, "@\t300\tIN\tA\t192.0.2.1"],
    [{ type: "AAAA", name: "www", content: "2001:db8::1", ttl: 600 }, "www\t600\tIN\tAAAA\t2001:db8::1"],
    [{ type: "CNAME", name: "blog", content: "hosting.example.net" }, "blog\t300\tIN\tCNAME\thosting.example.net."],
    [{ type: "MX", content: "mail.example.net", priority: 10 }, "@\t300\tIN\tMX\t10 mail.example.net."],
    [{ type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.net" }, "_sip._tcp\t300\tIN\tSRV\t10 60 5060 sip.example.net."],
    [{ type: "SRV", name: "_x._tcp", content: "0 0 0 ." }, "_x._tcp\t300\tIN\tSRV\t0 0 0 ."],
    [{ type: "NS", name: "sub", content: "ns1.other.net" }, "sub\t300\tIN\tNS\tns1.other.net."],
    [{ type: "TXT", content: "v=spf1 -all" }, '@\t300\tIN\tTXT\t"v=spf1 -all"'],
    [{ type: "TXT", content: '"a\\"b" "c\\\\d"' }, '@\t300\tIN\tTXT\t"a\\"b" "c\\\\d"'],
    [{ type: "TXT", content: "tab\there ü" }, '@\t300\tIN\tTXT\t"tab\\009here \\195\\188"'],
    [{ type: "CAA", content: '0 issue "letsencrypt.org"' }, '@\t300\tIN\tCAA\t0 issue "letsencrypt.org"'],
    [{ type: "HTTPS", content: "1 . alpn=h2,h3 port=443" }, "@\t300\tIN\tHTTPS\t1 . alpn=h2,h3 port=443"],
    [{ type: "SVCB", name: "_dns", content: "1 dns.example.net alpn=dot" }, "_dns\t300\tIN\tSVCB\t1 dns.example.net. alpn=dot"],
    [{ type: "TLSA", name: "_443._tcp", content: `3 1 1 ${"ab".repeat(32)}` }, `_443._tcp\t300\tIN\tTLSA\t3 1 1 ${"ab".repeat(32)}`],
    [
      { type: "ALIAS", content: "lb.example.net" },
      "@\t300\tIN\tTYPE65401\t\\# 16 026c62076578616d706c65036e657400 ; ALIAS lb.example.net.",
    ],
  ] as const)("writes %j as %j", (draft, line) => {
    expect(recordLines(writeZoneFile("example.com", stored("example.com", [draft]), EXPORT_OPTIONS))).toEqual([line]);
  });

  it("splits a TXT string into character-strings of at most 255 bytes, never inside a character", () => {
    const [record] = stored("example.com", [{ type: "TXT", content: "é".repeat(200) }]);
    const [line] = recordLines(writeZoneFile("example.com", [record!], EXPORT_OPTIONS));
    const strings = [...line!.matchAll(/"([^"]*)"/g)].map((match) => match[1]!.match(/\\\d{3}/g)!.length);
    expect(strings).toEqual([254, 146]);
  });

  it("reads back a stored string of at most 255 characters but more bytes as two strings: DNS counts bytes", () => {
    const records = stored("example.com", [{ type: "TXT", content: "é".repeat(200) }]);
    const text = writeZoneFile("example.com", records, EXPORT_OPTIONS);
    const [record] = readZoneFile(text, "example.com", SERVICE_NAMESERVERS).records;
    expect(record!.content).toBe(`"${"é".repeat(127)}" "${"é".repeat(73)}"`);
    expect(writeZoneFile("example.com", [record!], EXPORT_OPTIONS)).toBe(text);
  });

  it("keeps the records in the order given, after the SOA and NS", () => {
    const records = stored("example.com", [
      { type: "TXT", name: "z", content: "last name first" },
      { type: "A", name: "a", content: "192.0.2.1" },
    ]);
    expect(recordLines(writeZoneFile("example.com", records, EXPORT_OPTIONS)).map((line) => line.split("\t")[0])).toEqual(["z", "a"]);
  });

  it("writes the service's nameservers once even when the records hold them at the apex", () => {
    const records = stored("example.com", [{ type: "NS", content: "NS1.service.test." }]);
    expect(writeZoneFile("example.com", records, EXPORT_OPTIONS)).toBe(writeZoneFile("example.com", [], EXPORT_OPTIONS));
  });

  it.each(ZONE_STORES)("gives the same text for $label each time, which reads back to the same records", ({ domain, records }) => {
    const text = writeZoneFile(domain, records, EXPORT_OPTIONS);
    expect(writeZoneFile(domain, records, EXPORT_OPTIONS)).toBe(text);
    const zone = readZoneFile(text, domain, SERVICE_NAMESERVERS);
    expect(zone.problems).toEqual([]);
    expect(zone.skipped.map(({ reason }) => reason)).toEqual(["soa", "service_nameservers", "service_nameservers"]);
    expect(zone.records.map(({ line: _line, ...record }) => record)).toEqual(records);
  });
});
