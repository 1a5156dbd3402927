/** Zone files through the API (GET .../zone, POST .../zone/import), on each store. */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { operationTable } from "../../../../generated/operations.js";
import { scaled } from "../../../../scripts/lib/deadlines.js";
import { PARTNER_A_KEY } from "../../../support/test-server.js";
import { useDnsRecordFixture } from "../dns/support/dns-record-fixture.js";

const { s, ids, listD, seedD } = useDnsRecordFixture();
type ImportRequest = components["schemas"]["ZoneImportRequest"];
type ImportLine = components["schemas"]["ZoneImportLine"];

/** The export as the wire carries it: the typed client would parse it, and the bytes are what is checked. */
async function exportZone(domainId = ids.domainId, accept = "text/dns") {
  const response = await fetch(`${s.baseUrl}/api/v1/domains/${domainId}/zone`, {
    headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, Accept: accept },
  });
  return { response, text: await response.text() };
}

const importZone = (body: ImportRequest, domain_id = ids.domainId, ifMatch?: string) =>
  s.api.POST("/api/v1/domains/{domain_id}/zone/import", {
    params: { path: { domain_id }, header: ifMatch === undefined ? {} : { "If-Match": ifMatch } },
    body,
  });

const zone = async () =>
  (await listD()).map(({ type, name, content, ttl, priority }) => `${type} ${name} ${content} ${ttl} ${priority}`).sort();
const dnsEvents = () => s.outbox.events.map((event) => event.type).filter((type) => type.startsWith("dns_record."));
const brief = (lines: readonly ImportLine[]) => lines.map(({ line, action, type, name }) => `${line} ${action} ${type} ${name}`);

/** One record of each kind the writer treats apart: apex, relative names, MX priority, a TXT longer than one string. */
async function seedVariedZone(): Promise<void> {
  await seedD({ type: "A", name: "@", content: "192.0.2.1" });
  await seedD({ type: "AAAA", name: "www", content: "2001:db8::1", ttl: 600 });
  await seedD({ type: "CNAME", name: "blog", content: "hosting.example.net" });
  await seedD({ type: "MX", name: "@", content: "mail.example.net", priority: 10 });
  await seedD({ type: "TXT", name: "@", content: `v=spf1 include:example.net ~all` });
  await seedD({ type: "TXT", name: "long", content: `"${"a".repeat(255)}" "${"b".repeat(45)}"` });
  await seedD({ type: "CAA", name: "@", content: '0 issue "letsencrypt.org"' });
}

describe("the export", () => {
  it("is text/dns, a download named after the domain, with $ORIGIN, $TTL and every record, the same bytes each time", async () => {
    await seedVariedZone();
    const first = await exportZone();
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("content-type")).toMatch(/^text\/dns/);
    expect(first.response.headers.get("content-disposition")).toBe('attachment; filename="adalovelace.com.zone"');
    expect(first.text).toMatch(/^\$ORIGIN adalovelace\.com\.$/m);
    expect(first.text).toMatch(/^\$TTL \d+$/m);
    expect(first.text).toMatch(/\sSOA\s/);
    for (const record of await listD())
      expect(first.text).toContain(record.type === "TXT" ? record.content.slice(0, 20).replace(/^"/, "") : record.content);
    const second = await exportZone();
    expect(second.text).toBe(first.text);
    expect(second.response.headers.get("etag")).toBe(first.response.headers.get("etag"));
  });

  it("answers text/plain, the same bytes, to a client that asks for it", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const dns = await exportZone();
    const plain = await exportZone(ids.domainId, "text/plain");
    expect(plain.response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(plain.text).toBe(dns.text);
  });

  it("changes its serial and ETag with the records", async () => {
    const before = await exportZone();
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const after = await exportZone();
    expect(after.response.headers.get("etag")).not.toBe(before.response.headers.get("etag"));
    const serial = (text: string) => /SOA\s+\S+\s+\S+\s+\(?\s*(\d+)/.exec(text)?.[1];
    expect(serial(after.text)).not.toBe(serial(before.text));
  });

  it("of a domain on other nameservers is the records still, under a first comment line saying the service does not serve them", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const served = await exportZone();
    const domain = (await s.services.store.findDomain(ids.domainId))!;
    await s.services.store.saveDomain({ ...domain, nameservers: ["ns1.elsewhere.example", "ns2.elsewhere.example"] });
    const { text } = await exportZone();
    expect(text.split("\n")[0]).toMatch(
      /^; adalovelace\.com is delegated to other nameservers \(ns1\.elsewhere\.example, ns2\.elsewhere\.example\)/,
    );
    expect(text.slice(text.indexOf("\n") + 1)).toBe(served.text);
  });

  it("is refused for another partner's domain", async () => {
    const { response } = await exportZone(ids.otherDomainId);
    expect(response.status).toBe(403);
  });

  it("is an operation of both variants", () => {
    expect(operationTable.exportDomainZone.variants).toEqual(["R", "D"]);
    expect(operationTable.importDomainZone.variants).toEqual(["R", "D"]);
  });
});

describe("an import", () => {
  const file = [
    "$ORIGIN adalovelace.com.",
    "$TTL 300",
    "@ IN SOA ns1.other.example. hostmaster.adalovelace.com. 1 3600 600 1209600 300",
    "@      IN A     192.0.2.1",
    "www    600 IN A 192.0.2.2",
    "api    IN CNAME api.example.net.",
    "@      IN MX 10 mail.example.net.",
  ].join("\n");

  it("with dry_run answers the plan line by line and changes nothing", async () => {
    await seedD({ type: "A", name: "@", content: "192.0.2.1" });
    const before = await zone();
    s.outbox.events.length = 0;
    const { data, response } = await importZone({ zone_file: file, dry_run: true });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ dry_run: true, applied: false, mode: "merge" });
    expect(brief(data!.lines)).toEqual(["3 skip SOA @", "4 unchanged A @", "5 create A www", "6 create CNAME api", "7 create MX @"]);
    expect(data!.counts).toEqual({ create: 3, update: 0, delete: 0, unchanged: 1, skip: 1, refuse: 0 });
    expect(await zone()).toEqual(before);
    expect(dnsEvents()).toEqual([]);
  });

  it("merges: creates what is new, updates a TTL, keeps what the file lacks, and emits the change set's events", async () => {
    await seedD({ type: "A", name: "@", content: "192.0.2.1", ttl: 3600 });
    const kept = await seedD({ type: "TXT", name: "keep", content: "not in the file" });
    s.outbox.events.length = 0;
    const { data, response } = await importZone({ zone_file: file, mode: "merge" });
    expect(response.status).toBe(200);
    expect(data!.applied).toBe(true);
    expect(data!.counts).toMatchObject({ create: 3, update: 1, delete: 0 });
    expect(data!.lines.find((line) => line.action === "create")!.record_id).toMatch(/^rec_/);
    expect(await zone()).toEqual(
      [
        "A @ 192.0.2.1 300 null",
        "A www 192.0.2.2 600 null",
        "CNAME api api.example.net 300 null",
        "MX @ mail.example.net 300 10",
        "TXT keep not in the file 300 null",
      ].sort(),
    );
    expect((await listD()).some((record) => record.id === kept)).toBe(true);
    expect(dnsEvents()).toEqual(["dns_record.updated", "dns_record.created", "dns_record.created", "dns_record.created"]);
  });

  it("replaces: also deletes what the file lacks, reported at line 0 after the file's lines", async () => {
    await seedD({ type: "A", name: "@", content: "192.0.2.1" });
    const gone = await seedD({ type: "TXT", name: "old", content: "not in the file" });
    s.outbox.events.length = 0;
    const { data, response } = await importZone({ zone_file: file, mode: "replace" });
    expect(response.status).toBe(200);
    expect(data!.lines.at(-1)).toMatchObject({ line: 0, action: "delete", record_id: gone, type: "TXT", name: "old" });
    expect((await listD()).some((record) => record.id === gone)).toBe(false);
    expect(dnsEvents()[0]).toBe("dns_record.deleted");
  });

  it("updates the target of a CNAME in place rather than adding a second", async () => {
    const cname = await seedD({ type: "CNAME", name: "api", content: "old.example.net" });
    const { data } = await importZone({ zone_file: "api 300 IN CNAME api.example.net." });
    expect(data!.lines).toMatchObject([{ line: 1, action: "update", record_id: cname }]);
    expect(await zone()).toEqual(["CNAME api api.example.net 300 null"]);
  });

  it("reads TTL 1, Cloudflare's export of its automatic TTL, as the 300 seconds Cloudflare served", async () => {
    const { data } = await importZone({ zone_file: "auto 1 IN A 192.0.2.7\nfixed 60 IN A 192.0.2.8" });
    expect(data!.counts).toMatchObject({ create: 2, refuse: 0 });
    expect(await zone()).toEqual(["A auto 192.0.2.7 300 null", "A fixed 192.0.2.8 60 null"]);
  });

  it("refuses a file with a bad line: 422 naming each refused line and its code, nothing changed, no event", async () => {
    await seedD({ type: "A", name: "@", content: "192.0.2.1" });
    const before = await zone();
    s.outbox.events.length = 0;
    const bad = ["www IN A 192.0.2.2", "$INCLUDE other.zone", "x IN A not-an-address", "short 5 IN A 192.0.2.3"].join("\n");
    const { error, response } = await importZone({ zone_file: bad, mode: "replace" });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "unprocessable_entity", details: { code: "zone_import_rejected" } });
    const lines = (error as unknown as { details: { lines: ImportLine[] } }).details.lines;
    const refused = lines.filter((line) => line.action === "refuse");
    expect(refused.map((line) => line.line)).toEqual([2, 3, 4]);
    expect(refused[0]!.code).toBe("include_not_supported");
    expect(refused[2]!.code).toBe("out_of_range");
    expect(await zone()).toEqual(before);
    expect(dnsEvents()).toEqual([]);
  });

  it("maps a conflict the change set finds back to the line that makes it", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const { error, response } = await importZone({ zone_file: "; a comment\n\nwww IN CNAME other.example.net." });
    expect(response.status).toBe(422);
    const lines = (error as unknown as { details: { lines: ImportLine[] } }).details.lines;
    expect(lines).toMatchObject([{ line: 3, action: "refuse", code: "cname_conflict" }]);
  });

  it("applies only to the zone exported when If-Match names its ETag", async () => {
    await seedD({ type: "A", name: "www", content: "192.0.2.1" });
    const { response, text } = await exportZone();
    const etag = response.headers.get("etag")!;
    await seedD({ type: "A", name: "other", content: "192.0.2.9" });
    const stale = await importZone({ zone_file: text, mode: "replace" }, ids.domainId, etag);
    expect(stale.response.status).toBe(412);
    expect((await listD()).length).toBe(2);
  });

  it("with an Idempotency-Key answers a retry as the first time, applying it once", async () => {
    const send = () =>
      s.api.POST("/api/v1/domains/{domain_id}/zone/import", {
        params: { path: { domain_id: ids.domainId }, header: { "Idempotency-Key": "zone-import-1" } },
        body: { zone_file: "www 300 IN A 192.0.2.5\n" },
      });
    const first = await send();
    const again = await send();
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
    expect(await zone()).toEqual(["A www 192.0.2.5 300 null"]);
  });

  it("is refused for another partner's domain", async () => {
    const { response } = await importZone({ zone_file: file }, ids.otherDomainId);
    expect(response.status).toBe(403);
  });

  it("refuses a file over the documented size before reading it", async () => {
    const { response, error } = await importZone({ zone_file: "; x\n".repeat(131_073) });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "zone_file", code: "too_long" } });
  });
});

describe("a round trip", () => {
  it("export, import with replace after a change, export again: the same bytes, and an import of the export changes nothing", async () => {
    await seedVariedZone();
    const first = await exportZone();
    const added = await seedD({ type: "A", name: "extra", content: "192.0.2.99" });
    const { data, response } = await importZone({ zone_file: first.text, mode: "replace" });
    expect(response.status).toBe(200);
    expect(data!.counts).toMatchObject({ create: 0, update: 0, delete: 1, refuse: 0 });
    expect(data!.lines.find((line) => line.action === "delete")!.record_id).toBe(added);
    const second = await exportZone();
    expect(second.text).toBe(first.text);
    s.outbox.events.length = 0;
    const again = await importZone({ zone_file: second.text, mode: "replace" });
    expect(again.data!.counts).toMatchObject({ create: 0, update: 0, delete: 0, refuse: 0 });
    expect(dnsEvents()).toEqual([]);
  });
});

const NAMED_CHECKZONE = ["/usr/bin/named-checkzone", "/usr/sbin/named-checkzone"].find((path) => existsSync(path));
const requireChecker = process.env.REQUIRE_NAMED_CHECKZONE === "1";

describe.runIf(NAMED_CHECKZONE !== undefined || requireChecker)("the export over HTTP", () => {
  it("passes named-checkzone", async () => {
    expect(NAMED_CHECKZONE, "named-checkzone (Debian's bind9-utils) is required: REQUIRE_NAMED_CHECKZONE=1").toBeDefined();
    await seedVariedZone();
    const { text } = await exportZone();
    const directory = mkdtempSync(join(tmpdir(), "zone-export-"));
    try {
      const file = join(directory, "adalovelace.com.zone");
      writeFileSync(file, text);
      const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
        execFile(
          NAMED_CHECKZONE!,
          ["-i", "local", "-k", "fail", "adalovelace.com", file],
          { timeout: scaled(20_000) },
          (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
        );
      });
      expect(result, result.output).toMatchObject({ code: 0 });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
