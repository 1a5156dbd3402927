/**
 * Zone files in the formats real exporters write (test/fixtures/zone-files/): BIND's own
 * named-compilezone output of two of the service's exports, and hand-written files after the
 * shape of Cloudflare's, Route 53's (cli53), DNSimple's, PowerDNS's and GoDaddy's exports, and an
 * awkward one. Each imports without loss: every record is a record, a skip or a problem, counted.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readZoneFile } from "../../../../server/domain/zone-files/zone-file.js";
import { lexZoneFile } from "../../../../server/domain/zone-files/zone-tokens.js";
import { SERVICE_NAMESERVERS, ZONE_STORES } from "./support/zone-stores.js";

const fixture = (file: string) => readFileSync(new URL(`../../../fixtures/zone-files/${file}`, import.meta.url), "utf8");
const tally = (values: readonly string[]) =>
  Object.fromEntries([...new Set(values)].sort().map((value) => [value, values.filter((v) => v === value).length]));

interface CorpusCase {
  file: string;
  domain: string;
  records: number;
  skipped: Record<string, number>;
  problems: Record<string, number>;
}

const CORPUS: readonly CorpusCase[] = [
  {
    file: "bind-named-compilezone-full.zone",
    domain: "example.com",
    records: 24,
    skipped: { service_nameservers: 2, soa: 1 },
    problems: {},
  },
  {
    file: "bind-named-compilezone-relative.zone",
    domain: "example.org",
    records: 8,
    skipped: { service_nameservers: 2, soa: 1 },
    problems: {},
  },
  {
    file: "cloudflare-export.txt",
    domain: "example.com",
    records: 21,
    skipped: { service_nameservers: 2, soa: 1, unsupported_type: 2 },
    problems: {},
  },
  {
    file: "route53-cli53-export.zone",
    domain: "example.com",
    records: 11,
    skipped: { service_nameservers: 4, soa: 1, unsupported_type: 2 },
    problems: {},
  },
  {
    file: "dnsimple-export.zone",
    domain: "example.com",
    records: 15,
    skipped: { service_nameservers: 4, soa: 1, unsupported_type: 2 },
    problems: {},
  },
  {
    file: "powerdns-list-zone.zone",
    domain: "example.com",
    records: 16,
    skipped: { service_nameservers: 2, soa: 1, unsupported_type: 2 },
    problems: {},
  },
  { file: "godaddy-export.txt", domain: "example.com", records: 10, skipped: { service_nameservers: 2, soa: 1 }, problems: {} },
  {
    file: "awkward-hand-written.zone",
    domain: "example.com",
    records: 18,
    skipped: { service_nameservers: 2, soa: 1, unsupported_type: 2 },
    problems: { include_not_supported: 2, outside_zone: 1, syntax_error: 1, unsupported_class: 1 },
  },
];

describe("the zone file corpus", () => {
  it.each(CORPUS)("reads $file with every record counted", ({ file, domain, records, skipped, problems }) => {
    const zone = readZoneFile(fixture(file), domain, SERVICE_NAMESERVERS);
    expect({
      records: zone.records.length,
      skipped: tally(zone.skipped.map(({ reason }) => reason)),
      problems: tally(zone.problems.map(({ code }) => code)),
    }).toEqual({ records, skipped, problems });
  });

  it.each(CORPUS)("answers each entry of $file once, at its line", ({ file, domain }) => {
    const text = fixture(file);
    const zone = readZoneFile(text, domain, SERVICE_NAMESERVERS);
    const lexing = lexZoneFile(text);
    const settingDirectives = lexing.entries.filter((entry) => !entry.blankOwner && /^\$(ORIGIN|TTL)$/i.test(entry.tokens[0]!.text));
    const answered = [...zone.records, ...zone.skipped, ...zone.problems].map(({ line }) => line).sort((a, b) => a - b);
    const expected = [
      ...lexing.entries.filter((entry) => !settingDirectives.includes(entry)).map(({ line }) => line),
      ...lexing.problems.map(({ line }) => line),
    ];
    expect(answered).toEqual(expected.sort((a, b) => a - b));
  });

  it.each([
    ["bind-named-compilezone-full.zone", ZONE_STORES[1]!],
    ["bind-named-compilezone-relative.zone", ZONE_STORES[2]!],
  ])("reads BIND's rewrite of an export (%s) back to the records exported", (file, store) => {
    const zone = readZoneFile(fixture(file), store.domain, SERVICE_NAMESERVERS);
    const key = (record: { name: string; type: string; content: string; ttl: number; priority: number | null }) =>
      `${record.name} ${record.type} ${record.ttl} ${record.priority} ${record.content}`;
    expect(zone.records.map(key).sort()).toEqual(store.records.map(key).sort());
  });

  it("keeps the awkward file's CRLF line ends (a checkout that converts them would test less)", () => {
    expect(fixture("awkward-hand-written.zone")).toMatch(/^[^\n]*\r\n/);
  });

  it("reads the awkward file's escapes, parentheses, blank owners and $ORIGIN changes", () => {
    const zone = readZoneFile(fixture("awkward-hand-written.zone"), "example.com", SERVICE_NAMESERVERS);
    const byLine = new Map(zone.records.map((record) => [record.line, record]));
    expect(byLine.get(10)).toMatchObject({ name: "@", type: "MX", content: "mail.example.com", priority: 10, ttl: 9000 });
    expect(byLine.get(13)).toMatchObject({ name: "mail", type: "AAAA", ttl: 3600 });
    expect(byLine.get(17)).toMatchObject({ name: "txt", content: '"say \\"hi\\"" "back\\\\slash" "Hi!"' });
    expect(byLine.get(18)).toMatchObject({ name: "txt", content: '"split over" "two lines"' });
    expect(byLine.get(24)).toMatchObject({ name: "sub", type: "CNAME", content: "host.sub.example.com" });
    expect(byLine.get(31)).toMatchObject({ content: `3 1 1 ${"0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6"}` });
    expect(byLine.get(33)).toMatchObject({ name: "@", type: "ALIAS", content: "lb.example.net" });
  });
});
