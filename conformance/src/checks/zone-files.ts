/**
 * Zone files (an addition, both variants): the export holds the zone as a master file, the import
 * is one change set reported per line, atomic, and a round trip gives the same bytes. The zone is
 * seeded and read through Variant D's record operations, so a Variant R target is not checked.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { expectZoneUnchanged, ownDomain, seedD, zoneLines, zoneOf, type OwnDomain } from "./dns-records-support.js";
import { characterStringBytes, countsByNameAndType, exportZone, importZone, readExport, reportLines } from "./zone-files-support.js";

const needs = ["state" as const, "sandbox" as const];
const operations = ["exportDomainZone", "importDomainZone", "listDomainDnsRecords", "createDomainDnsRecord"];

/** A TXT string of 200 characters but 400 bytes: an export must split it into character-strings of at most 255 bytes. */
const WIDE_TEXT = "é".repeat(200);

async function seededDomain(context: CheckContext, stem: string): Promise<OwnDomain> {
  const domain = await ownDomain(context, stem);
  await seedD(context, domain.id, { type: "A", name: "@", content: "192.0.2.1" });
  await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.2", ttl: 600 });
  await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.net", priority: 10 });
  await seedD(context, domain.id, { type: "TXT", name: "long", content: WIDE_TEXT });
  return domain;
}

async function exported(context: CheckContext, domainId: string): Promise<{ result: CallResult; text: string }> {
  const result = await exportZone(context, domainId);
  expectConforming(result);
  expectStatus(result, 200, "exporting the zone");
  return { result, text: result.body as string };
}

/** 422 zone_import_rejected with the report in details.lines. */
function refusedLines(
  result: CallResult,
  why: string,
): Array<{ line: number; action: string; code: string | null; type: string; name: string }> {
  expectCoded(result, 422, "unprocessable_entity", undefined, "zone_import_rejected", why);
  return result.body.details.lines;
}

export default defineChecks([
  {
    id: "zone-files.export-holds-the-zone",
    title:
      "The export is text/dns named <domain>.zone, with $ORIGIN, $TTL, an SOA and as many records of each name and type as the record list; TXT in character-strings of at most 255 bytes; the same bytes twice",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfe");
      const { result, text } = await exported(context, domain.id);
      expect(result.headers.get("content-type")).toMatch(/^text\/dns\b/);
      expect(result.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment;\\s*filename="?${domain.name.replace(/\./g, "\\.")}\\.zone"?$`),
      );
      const read = readExport(text, domain.name);
      expect({ origin: read.origin?.toLowerCase(), ttl: read.ttl !== null }).toEqual({ origin: `${domain.name}.`, ttl: true });
      expect(read.records.filter((record) => record.type === "SOA")).toHaveLength(1);
      const listed = (await zoneOf(context, domain.id)).map((record) => ({ owner: record.name.toLowerCase(), type: record.type }));
      const inFile = read.records.filter(
        (record) => listed.some((item) => item.type === record.type) && !(record.owner === "@" && record.type === "NS"),
      );
      expect(countsByNameAndType(inFile)).toEqual(countsByNameAndType(listed));
      const txt = read.records.find((record) => record.owner === "long" && record.type === "TXT");
      const strings = (txt?.rdata ?? []).map(characterStringBytes);
      expect({ longest: Math.max(0, ...strings.map((bytes) => bytes.length)) <= 255 }).toEqual({ longest: true });
      expect(new TextDecoder().decode(Buffer.concat(strings))).toBe(WIDE_TEXT);
      expect((await exported(context, domain.id)).text).toBe(text);
    },
  },
  {
    id: "zone-files.dry-run-changes-nothing",
    title: "An import with dry_run answers the plan per line (applied false) and changes nothing",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfd");
      const before = await zoneOf(context, domain.id);
      const result = await importZone(context, domain.id, {
        zone_file: "new 300 IN A 192.0.2.50\nwww 300 IN A 192.0.2.2\n",
        mode: "replace",
        dry_run: true,
      });
      expectConforming(result);
      expectStatus(result, 200, "a dry run");
      expect({ dry_run: result.body.dry_run, applied: result.body.applied }).toEqual({ dry_run: true, applied: false });
      expect(reportLines(result.body.lines).slice(0, 2)).toEqual(["1 create A new", "2 update A www"]);
      expect(result.body.counts.delete).toBe(3);
      await expectZoneUnchanged(context, domain.id, before, "a dry run changes nothing");
    },
  },
  {
    id: "zone-files.merge-adds-and-keeps",
    title:
      "A merge creates the new, updates a different TTL, leaves the same as unchanged and keeps what the file lacks, each line by its number",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfm");
      const before = await zoneOf(context, domain.id);
      const file = ["$TTL 300", "; the apex", "@ IN A 192.0.2.1", "", "www IN A 192.0.2.2", "api IN AAAA 2001:db8::5"].join("\n");
      const result = await importZone(context, domain.id, { zone_file: file, mode: "merge" });
      expectConforming(result);
      expectStatus(result, 200, "a merge");
      expect(reportLines(result.body.lines)).toEqual(["3 unchanged A @", "5 update A www", "6 create AAAA api"]);
      const expected = [
        ...zoneLines(before.map((record) => (record.name === "www" ? { ...record, ttl: 300 } : record))),
        "AAAA api 2001:db8::5 ttl=300 priority=null",
      ].sort();
      expect(zoneLines(await zoneOf(context, domain.id))).toEqual(expected);
    },
  },
  {
    id: "zone-files.replace-deletes",
    title: "A replace also deletes what the file lacks, each reported at line 0 with its id: the zone then holds the file's records only",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfr");
      const before = await zoneOf(context, domain.id);
      const result = await importZone(context, domain.id, { zone_file: "$TTL 300\n@ IN A 192.0.2.1\n", mode: "replace" });
      expectConforming(result);
      expectStatus(result, 200, "a replace");
      const deleted = result.body.lines.filter((line: { action: string }) => line.action === "delete");
      expect(deleted.map((line: { line: number; record_id: string }) => `${line.line} ${line.record_id}`).sort()).toEqual(
        before
          .filter((record) => record.name !== "@" || record.type !== "A")
          .map((record) => `0 ${record.id}`)
          .sort(),
      );
      expect(zoneLines(await zoneOf(context, domain.id))).toEqual(["A @ 192.0.2.1 ttl=300 priority=null"]);
    },
  },
  {
    id: "zone-files.bad-line-changes-nothing",
    title: "A file with refused lines answers 422 zone_import_rejected naming each by its line number and code, and the zone is as before",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfb");
      const before = await zoneOf(context, domain.id);
      const file = ["; first a comment", "", "fine 300 IN A 192.0.2.60", "bad 300 IN A 192.0.2", "www 300 IN CNAME example.net."].join(
        "\n",
      );
      // merge: the A records at www stay, so the CNAME there conflicts.
      const lines = refusedLines(
        await importZone(context, domain.id, { zone_file: file, mode: "merge" }),
        "a bad address and a CNAME conflict",
      );
      const refused = lines.filter((line) => line.action === "refuse");
      expect(refused.map((line) => line.line)).toEqual([4, 5]);
      // The reader or the record rules may refuse the address first: either code is documented.
      expect(refused[0]!.code).toMatch(/^invalid_(format|rdata)$/);
      expect(refused[1]!.code).toBe("cname_conflict");
      await expectZoneUnchanged(context, domain.id, before, "a refused import changes nothing");
    },
  },
  {
    id: "zone-files.include-refused",
    title: "$INCLUDE is refused with include_not_supported on its line, and nothing changes",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zfi");
      const before = await zoneOf(context, domain.id);
      const file = "$TTL 300\nnew IN A 192.0.2.70\n$INCLUDE /etc/passwd\n";
      const lines = refusedLines(await importZone(context, domain.id, { zone_file: file }), "$INCLUDE");
      expect(lines.filter((line) => line.action === "refuse").map((line) => `${line.line} ${line.code}`)).toEqual([
        "3 include_not_supported",
      ]);
      await expectZoneUnchanged(context, domain.id, before, "a refused import changes nothing");
    },
  },
  {
    id: "zone-files.round-trip-identical",
    title: "Export, change the zone, import the export with replace, export again: the same bytes",
    needs,
    operations,
    async run(context) {
      const domain = await seededDomain(context, "zft");
      const first = await exported(context, domain.id);
      await seedD(context, domain.id, { type: "TXT", name: "extra", content: "gone after the import" });
      const result = await importZone(context, domain.id, { zone_file: first.text, mode: "replace" });
      expectConforming(result);
      expectStatus(result, 200, "importing the export");
      expect(result.body.counts).toMatchObject({ create: 0, update: 0, delete: 1, refuse: 0 });
      expect((await exported(context, domain.id)).text).toBe(first.text);
    },
  },
  {
    id: "zone-files.events-emitted",
    title: "An applied import emits one dns_record.created, updated or deleted event per record it changes",
    needs,
    operations: [...operations, "listEvents"],
    async run(context) {
      const domain = await seededDomain(context, "zfv");
      const result = await importZone(context, domain.id, {
        zone_file: "$TTL 300\n@ IN A 192.0.2.1\nwww IN A 192.0.2.2\nnew IN A 192.0.2.80\n",
        mode: "replace",
      });
      expectStatus(result, 200, "an import");
      const changed = result.body.lines
        .filter((line: { action: string }) => ["create", "update", "delete"].includes(line.action))
        .map((line: { action: string; record_id: string }) => `dns_record.${line.action}d ${line.record_id}`)
        .sort();
      const events = await context.api.call("listEvents", { query: { limit: 100 } });
      expectStatus(events, 200);
      // The seeded records' own created events are not the import's.
      const ours = (events.body.events as Array<{ type: string; domain_id: string; data: { id: string } }>)
        .filter((event) => event.type.startsWith("dns_record.") && event.domain_id === domain.id)
        .map((event) => `${event.type} ${event.data.id}`)
        .filter((event) => !event.startsWith("dns_record.created ") || changed.includes(event));
      expect(ours.sort()).toEqual(changed);
    },
  },
]);
