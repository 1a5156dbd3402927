/**
 * The client's tarball the developer portal serves (scripts/lib/client-tarball.ts): npm's package
 * of client/, under its versioned name and the name that stays, packed again only when it is not
 * the one packed there from what it is made of now.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../scripts/lib/atomic-files.js";
import { RECORD_FILE } from "../../scripts/lib/build-records.js";
import { buildClientTarball, type ClientTarballOutcome } from "../../scripts/lib/client-tarball.js";
import { clientTarballName, LATEST_CLIENT_TARBALL } from "../../server/dashboard/client-tarball-files.js";

const { version } = JSON.parse(readFileSync("client/package.json", "utf8")) as { version: string };
let directory: string;
let first: ClientTarballOutcome;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "client-tarball-"));
  // A tarball of an earlier version, which the build replaces.
  writeFileSync(join(directory, clientTarballName("0.0.1")), "");
  first = await buildClientTarball(directory, { onlyStale: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const inTarball = (file: string, path: string) => execFileSync("tar", ["-xzOf", join(directory, file), path], { encoding: "utf8" });

describe("buildClientTarball", () => {
  it("packs @partner-api/client at its version, under npm's name and the name that stays, and drops earlier versions", () => {
    expect(first).toEqual({ built: true, file: clientTarballName(version) });
    expect(readdirSync(directory).sort()).toEqual([RECORD_FILE, LATEST_CLIENT_TARBALL, clientTarballName(version)].sort());
    for (const file of [clientTarballName(version), LATEST_CLIENT_TARBALL]) {
      // gzip's magic number, then a tar whose package.json names the client.
      expect(readFileSync(join(directory, file)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect(JSON.parse(inTarball(file, "package/package.json"))).toMatchObject({ name: "@partner-api/client", version });
      expect(inTarball(file, "package/dist/index.js")).toContain("createPartnerClient");
    }
  });

  it("packs again only when the tarball is not the one it packed", async () => {
    expect(await buildClientTarball(directory, { onlyStale: true })).toEqual({ built: false, file: clientTarballName(version) });
    writeFileAtomic(join(directory, LATEST_CLIENT_TARBALL), "not a tarball");
    expect((await buildClientTarball(directory, { onlyStale: true })).built).toBe(true);
    expect(JSON.parse(inTarball(LATEST_CLIENT_TARBALL, "package/package.json"))).toMatchObject({ version });
  });
});
