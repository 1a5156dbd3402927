/**
 * Properties over generated input: export -> read -> write gives the identical text for any record
 * set the service can hold, and the reader answers any text without throwing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRecord, type RecordDraft, storedFields } from "../../../../server/domain/dns/record-rules.js";
import { readZoneFile, writeZoneFile, type ZoneRecordInput } from "../../../../server/domain/zone-files/zone-file.js";
import { EXPORT_OPTIONS, SERVICE_NAMESERVERS } from "./support/zone-stores.js";

const DOMAIN = "example.com";

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const relativeName = fc.oneof(
  fc.constant("@"),
  fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join(".")),
  label.map((first) => `_${first}`),
  label.map((first) => `*.${first}`),
  label.map((first) => `xn--${first}-kva`),
);
const host = fc.domain().filter((name) => name.split(".").length >= 2);
const u16 = fc.integer({ min: 0, max: 65535 });
// Printable ASCII up to the service's bound, any code points (lone surrogates too) in short strings, and awkward constants.
const txtString = fc.oneof(
  fc.string({ maxLength: 255 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom('say "hi"', "back\\slash", "semi;colon (paren)", "tab\there", "ü".repeat(200), "", " "),
);
const quote = (text: string) => `"${text.replace(/["\\]/g, "\\$&")}"`;

/** A draft of each type with the parts its content needs; the service's rules decide which are stored. */
const typedDraft: fc.Arbitrary<Omit<RecordDraft, "name" | "ttl"> & { name?: string }> = fc.oneof(
  fc.ipV4().map((content) => ({ type: "A" as const, content, priority: null })),
  fc.ipV6().map((content) => ({ type: "AAAA" as const, content, priority: null })),
  host.map((content) => ({ type: "CNAME" as const, content, priority: null })),
  host.map((content) => ({ type: "NS" as const, content, priority: null })),
  host.map((content) => ({ type: "ALIAS" as const, content, priority: null, name: "@" })),
  fc.tuple(u16, host).map(([priority, content]) => ({ type: "MX" as const, content, priority })),
  fc.array(txtString, { minLength: 1, maxLength: 3 }).map((strings) => ({
    type: "TXT" as const,
    content: strings.length === 1 ? strings[0]! : strings.map(quote).join(" "),
    priority: null,
  })),
  fc.tuple(u16, u16, u16, fc.oneof(fc.constant("."), host)).map(([priority, weight, port, target]) => ({
    type: "SRV" as const,
    content: `${priority} ${weight} ${port} ${target}`,
    priority,
  })),
  fc.tuple(fc.constantFrom(0, 128), fc.constantFrom("issue", "issuewild"), host).map(([flags, tag, value]) => ({
    type: "CAA" as const,
    content: `${flags} ${tag} "${value}"`,
    priority: null,
  })),
  fc
    .tuple(
      fc.constantFrom("HTTPS" as const, "SVCB" as const),
      fc.integer({ min: 1, max: 65535 }),
      fc.oneof(fc.constant("."), host),
      fc.subarray(["alpn=h2,h3", "port=8443", "ipv4hint=192.0.2.1"]),
    )
    .map(([type, priority, target, params]) => ({ type, content: [priority, target, ...params].join(" "), priority })),
  fc.tuple(u16, fc.integer({ min: 0, max: 3 }), fc.stringMatching(/^[0-9a-f]{64}$/)).map(([port, usage, hex]) => ({
    type: "TLSA" as const,
    content: `${usage} 1 1 ${hex}`,
    priority: null,
    name: `_${port}._tcp`,
  })),
);
const draft: fc.Arbitrary<RecordDraft> = fc
  .record({ name: relativeName, ttl: fc.integer({ min: 60, max: 86400 }), typed: typedDraft })
  .map(({ name, ttl, typed }) => ({ name, ttl, ...typed }));

/** Apex NS records are the domain's nameservers, which an import sets apart (service_nameservers): not records to round-trip. */
const storable = (candidate: RecordDraft) => !(candidate.type === "NS" && candidate.name === "@");

const recordSet: fc.Arbitrary<ZoneRecordInput[]> = fc.array(draft, { maxLength: 12 }).map((drafts) =>
  drafts.filter(storable).flatMap((candidate) => {
    const parse = parseRecord(candidate, DOMAIN);
    return parse.record ? [storedFields(parse.record)] : [];
  }),
);

describe("export -> read -> write", () => {
  it("gives the identical text, and reads back with nothing lost", () => {
    fc.assert(
      fc.property(recordSet, (records) => {
        const text = writeZoneFile(DOMAIN, records, EXPORT_OPTIONS);
        const zone = readZoneFile(text, DOMAIN, SERVICE_NAMESERVERS);
        expect(zone.problems).toEqual([]);
        expect(zone.records).toHaveLength(records.length);
        expect(writeZoneFile(DOMAIN, zone.records, EXPORT_OPTIONS)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

const zoneish = fc
  .array(
    fc.oneof(
      fc.constantFrom("$ORIGIN", "$TTL", "$INCLUDE", "$GENERATE", "@", "www", "example.com.", "other.net.", "a..b", "*", "_x"),
      fc.constantFrom("(", ")", ";", '"', "\\", "\\#", "\\065", "\\999", "IN", "CH", "CLASS1", "1h", "300", "0", "4", "ff", "c0000201"),
      fc.constantFrom("A", "AAAA", "MX", "TXT", "SOA", "NS", "SRV", "CAA", "HTTPS", "TLSA", "TYPE65401", "TYPE1", "PTR", "ALIAS"),
      fc.constantFrom("\n", "\r\n", " ", "\t", "  "),
      fc.string({ unit: "binary", maxLength: 6 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(" "));

describe("readZoneFile on any text", () => {
  it("never throws, and answers each entry at a line of the text", () => {
    fc.assert(
      fc.property(fc.oneof(zoneish, fc.string({ unit: "binary", maxLength: 400 })), (text) => {
        const zone = readZoneFile(text, DOMAIN, SERVICE_NAMESERVERS);
        const lines = text.split("\n").length;
        for (const { line } of [...zone.records, ...zone.skipped, ...zone.problems]) expect(line >= 1 && line <= lines).toBe(true);
        expect(zone.problems.filter(({ message }) => message.startsWith("the zone file could not be read"))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads a file at its size bound within its work bound", () => {
    const text = 'www 300 IN TXT "v=spf1 include:example.net ~all" ; a comment\n'.repeat(16000);
    const started = performance.now();
    const zone = readZoneFile(text, DOMAIN, SERVICE_NAMESERVERS);
    expect(zone.records).toHaveLength(16000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
