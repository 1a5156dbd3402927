/** The client's zone file calls against the reference server: the export as text, the import typed, a refused file narrowed. */
import { beforeEach, describe, expect, it } from "vitest";
import { createPartnerClient, isZoneImportRejected, PartnerApiError } from "../../client/src/index.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

const s = useTestServer();
const api = () => createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl });
let domainId: string;

beforeEach(async () => {
  await api().POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
});

describe("zone files through the client", () => {
  it("exports the zone as text with its ETag and file name, and imports it back only into that zone", async () => {
    const client = api();
    const imported = await client.importZone(domainId, { zone_file: "www 300 IN A 192.0.2.1\n", mode: "merge" });
    expect(imported.counts.create).toBe(1);
    const exported = await client.exportZone(domainId);
    expect(exported.text).toMatch(/^www\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
    expect(exported.filename).toBe("adalovelace.com.zone");
    expect(exported.etag).toMatch(/^"/);
    const again = await client.importZone(
      domainId,
      { zone_file: exported.text, mode: "replace", dry_run: true },
      { ifMatch: exported.etag! },
    );
    expect(again.counts).toMatchObject({ create: 0, delete: 0, refuse: 0 });
  });

  it("throws PartnerApiError with the per-line report for a refused file, and for a refused export", async () => {
    const client = api();
    const refused = await client.importZone(domainId, { zone_file: "$INCLUDE other.zone\n" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PartnerApiError);
    const body = (refused as PartnerApiError).body;
    expect(isZoneImportRejected(body)).toBe(true);
    if (isZoneImportRejected(body))
      expect(body.details.lines[0]).toMatchObject({ line: 1, action: "refuse", code: "include_not_supported" });
    const missing = await client.exportZone("dom_missing").catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, body: { error: "not_found" } });
  });
});
