/**
 * What makes a cached build current (scripts/lib/content-fingerprint.ts, scripts/lib/build-records.ts):
 * the bytes of what it read and its settings, never modification times; and its outputs still
 * being the files it wrote.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../scripts/lib/atomic-files.js";
import { isCurrent, outputIdentities, RECORD_FILE, readBuildRecords, saveBuildRecord } from "../../scripts/lib/build-records.js";
import { contentFingerprint, modifiedSince } from "../../scripts/lib/content-fingerprint.js";

function folderWith(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), "build-records-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  return directory;
}

describe("contentFingerprint", () => {
  it("is the same for the same bytes and settings, whatever the files' times", () => {
    const directory = folderWith({ "a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n" });
    const files = [join(directory, "a.ts"), join(directory, "b.ts")];
    const before = contentFingerprint(files, { node: "v24.0.0" });
    utimesSync(files[0]!, new Date(), new Date(Date.now() + 60_000));
    writeFileSync(files[1]!, "export const b = 2;\n");
    expect(contentFingerprint([...files].reverse(), { node: "v24.0.0" })).toBe(before);
  });

  it.each([
    ["a file's bytes change", (files: string[]) => writeFileSync(files[0]!, "export const a = 2;\n"), {}],
    ["a file is removed", (files: string[]) => rmSync(files[1]!), {}],
    ["a setting changes", () => {}, { node: "v24.1.0" }],
  ])("changes when %s", (_, change, settings) => {
    const directory = folderWith({ "a.ts": "export const a = 1;\n", "b.ts": "" });
    const files = [join(directory, "a.ts"), join(directory, "b.ts")];
    const before = contentFingerprint(files, { node: "v24.0.0" });
    change(files);
    expect(contentFingerprint(files, { node: "v24.0.0", ...settings })).not.toBe(before);
  });

  it("tells the bytes of one file from the same bytes moved to the next", () => {
    const directory = folderWith({ "a.ts": "ab", "b.ts": "" });
    const files = [join(directory, "a.ts"), join(directory, "b.ts")];
    const before = contentFingerprint(files, {});
    writeFileSync(files[0]!, "a");
    writeFileSync(files[1]!, "b");
    expect(contentFingerprint(files, {})).not.toBe(before);
  });
});

describe("modifiedSince", () => {
  it("says whether a file was written after a build began, counting a missing file as no change", () => {
    const directory = folderWith({ "a.ts": "" });
    const hourAgo = Date.now() - 3_600_000;
    utimesSync(join(directory, "a.ts"), new Date(hourAgo), new Date(hourAgo));
    expect(modifiedSince([join(directory, "a.ts"), join(directory, "gone.ts")], Date.now())).toBe(false);
    writeFileSync(join(directory, "a.ts"), "edited during the build");
    expect(modifiedSince([join(directory, "a.ts")], Date.now() - 100)).toBe(true);
  });
});

describe("build records", () => {
  const built = () => {
    const directory = folderWith({ "page.html": "<!doctype html>", "main.cjs": "" });
    saveBuildRecord(directory, "page", { fingerprint: "f1", outputs: outputIdentities(directory, ["page.html"]) });
    return directory;
  };

  it("is current for the fingerprint it was built from while its outputs are as written", () => {
    const directory = built();
    const record = readBuildRecords(directory).page;
    expect(isCurrent(directory, record, "f1")).toBe(true);
    expect(isCurrent(directory, record, "f2")).toBe(false);
    expect(isCurrent(directory, undefined, "f1")).toBe(false);
  });

  it.each([
    ["replaced by another build, even with the same bytes", (path: string) => writeFileAtomic(path, "<!doctype html>")],
    ["written over in place", (path: string) => writeFileSync(path, "<!doctype")],
    ["deleted", (path: string) => rmSync(path)],
  ])("is not current once an output is %s", (_, change) => {
    const directory = built();
    change(join(directory, "page.html"));
    expect(isCurrent(directory, readBuildRecords(directory).page, "f1")).toBe(false);
  });

  it("keeps each step's record when another step records, and reads an unreadable record as none", () => {
    const directory = built();
    saveBuildRecord(directory, "entry", { fingerprint: "f9", outputs: outputIdentities(directory, ["main.cjs"]) });
    expect(Object.keys(readBuildRecords(directory)).sort()).toEqual(["entry", "page"]);
    expect(readdirSync(directory).sort()).toEqual([RECORD_FILE, "main.cjs", "page.html"]);
    writeFileSync(join(directory, RECORD_FILE), '{"page": {"fingerprint"');
    expect(readBuildRecords(directory)).toEqual({});
    expect(() => outputIdentities(directory, ["nothing.html"])).toThrow("was not written");
  });
});
