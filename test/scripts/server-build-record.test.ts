/**
 * The server build `npm start` runs (buildServerUnlessCurrent, scripts/lib/server-build.ts, with
 * scripts/lib/server-build-record.ts): skipped when nothing it reads changed; built again for a
 * changed module, Node option or replaced output; and two builds at once into one directory leave
 * a whole server that starts with its code cache.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../scripts/lib/atomic-files.js";
import { scaled } from "../../scripts/lib/deadlines.js";
import { RECORD_FILE, readBuildRecords } from "../../scripts/lib/build-records.js";
import { buildServerUnlessCurrent, type ServerBuildOutcome } from "../../scripts/lib/server-build.js";
import { currentServerBuild, SERVER_BUILD_FILES, serverBuildFingerprint } from "../../scripts/lib/server-build-record.js";
import { SERVER_NODE_OPTIONS } from "../../scripts/lib/server-node-options.js";
import { announcedAddress, spawnServer } from "../../scripts/lib/server-process.js";
import { BUNDLE_FILE, CODE_CACHE_FILE, ENTRY_FILE } from "../../server/assembly/bundle-files.js";

const KEY = "sk_sandbox_cachedServerBuildTestKey000000000";

let directory: string;
let together: ServerBuildOutcome[];
let again: ServerBuildOutcome;
let againMs: number;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "server-build-record-"));
  // As two `npm start` in one checkout would: neither finds a build, both build.
  together = await Promise.all([buildServerUnlessCurrent(directory), buildServerUnlessCurrent(directory)]);
  const started = performance.now();
  again = await buildServerUnlessCurrent(directory);
  againMs = performance.now() - started;
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("buildServerUnlessCurrent", () => {
  it("builds when there is no build, and leaves only whole files of one (no staging folder, no temporary file)", () => {
    expect(together.map((outcome) => outcome.built)).toEqual([true, true]);
    expect(readdirSync(directory).sort()).toEqual([RECORD_FILE, ENTRY_FILE, BUNDLE_FILE, CODE_CACHE_FILE].sort());
    expect(readdirSync(join(directory, "..")).filter((name) => name.startsWith(`.${basename(directory)}.`))).toEqual([]);
  });

  it("skips the build when nothing it reads changed, checking in a fraction of a build's time", () => {
    expect(again.built).toBe(false);
    expect(again.modules).toBeGreaterThan(500);
    expect(againMs).toBeLessThan(scaled(2_000));
    const { inputs } = readBuildRecords(directory).server!;
    expect(inputs).toEqual(
      expect.arrayContaining(["server/main.ts", "server/assembly/cached-bundle-loader.ts", "node_modules/express/index.js"]),
    );
  });

  it("serves from the files the two builds left, with the code cache V8 accepts", async () => {
    const server = spawnServer([...SERVER_NODE_OPTIONS, join(directory, ENTRY_FILE)], {
      PORT: "0",
      PARTNER_API_CONFIG: "/nonexistent.json",
      PARTNER_API_KEYS: `built:${KEY}`,
      LOG_LEVEL: "silent",
    });
    try {
      const baseUrl = await announcedAddress(server);
      expect(baseUrl, server.output()).toBeDefined();
      expect((await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
      expect(server.output()).not.toContain("starting without it");
    } finally {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  });

  it("is not current under other Node options, or once an output is replaced", () => {
    expect(currentServerBuild(directory)).toBeDefined();
    const before = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = "--max-old-space-size=512";
    try {
      expect(currentServerBuild(directory)).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = before;
    }
    expect(currentServerBuild(directory)).toBeDefined();
    // The same bytes, as another build of the same sources leaves them: not what this build recorded.
    const entry = join(directory, ENTRY_FILE);
    writeFileAtomic(entry, readFileSync(entry));
    expect(currentServerBuild(directory)).toBeUndefined();
  });

  it("tells a changed module and a module added beside the bundled ones, and counts both lockfiles", () => {
    const work = mkdtempSync(join(tmpdir(), "server-build-record-sources-"));
    const module = relative(process.cwd(), join(work, "handler.ts"));
    writeFileSync(module, "export const answer = 1;\n");
    const fingerprint = serverBuildFingerprint([module]);
    expect(serverBuildFingerprint([module])).toBe(fingerprint);
    writeFileSync(module, "export const answer = 2;\n");
    const edited = serverBuildFingerprint([module]);
    expect(edited).not.toBe(fingerprint);
    // An import of "./handler.js" could now resolve to it instead.
    writeFileSync(join(work, "handler.js"), "");
    expect(serverBuildFingerprint([module])).not.toBe(edited);
    expect(SERVER_BUILD_FILES).toEqual(expect.arrayContaining(["package-lock.json", "node_modules/.package-lock.json"]));
    rmSync(work, { recursive: true });
  });
});
