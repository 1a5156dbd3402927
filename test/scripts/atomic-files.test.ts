/** Build outputs written whole (scripts/lib/atomic-files.ts): a reader sees the old file or the new one, never part of one; nothing is left behind. */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeAbandonedSiblings, replaceFile, writeFileAtomic } from "../../scripts/lib/atomic-files.js";

const SIZE = 4 * 1024 * 1024;

describe("writeFileAtomic", () => {
  it("never lets a reader in another process see a file half-written while it is replaced, again and again", async () => {
    const directory = mkdtempSync(join(tmpdir(), "atomic-files-"));
    const path = join(directory, "page.html");
    writeFileSync(path, "a".repeat(SIZE));
    // The writer runs in its own process, as a second `npm start` would.
    const writer = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "--eval",
        `import { writeFileAtomic } from ${JSON.stringify(new URL("../../scripts/lib/atomic-files.ts", import.meta.url).href)};
         for (let i = 0; i < 60; i++) writeFileAtomic(${JSON.stringify(path)}, (i % 2 ? "a" : "b").repeat(${SIZE}));`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    const ended = new Promise<number | null>((resolve) => writer.once("close", resolve));
    const seen = new Set<string>();
    while (writer.exitCode === null) {
      const text = readFileSync(path, "latin1");
      seen.add(`${text.length} ${text[0]}${text.at(-1)}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await ended).toBe(0);
    expect([...seen].filter((what) => !/^\d+ (aa|bb)$/.test(what) || !what.startsWith(`${SIZE} `))).toEqual([]);
    expect(readdirSync(directory)).toEqual(["page.html"]);
  });
});

describe("removeAbandonedSiblings", () => {
  it("removes what a build stopped midway left beside a file, never what a running one is writing", () => {
    const directory = mkdtempSync(join(tmpdir(), "atomic-files-"));
    const ended = spawnSync(process.execPath, ["--eval", ""]).pid!;
    const abandoned = `.page.html.${ended}-0123abcd.tmp`;
    const ours = `.page.html.${process.pid}-0123abcd.tmp`;
    const staging = `.server.${ended}-89abcdef.tmp`;
    for (const name of [abandoned, ours, "other.html"]) writeFileSync(join(directory, name), "");
    mkdirSync(join(directory, staging));
    writeFileSync(join(directory, staging, "server.cjs"), "");
    writeFileAtomic(join(directory, "page.html"), "<!doctype html>");
    expect(readdirSync(directory).sort()).toEqual([ours, staging, "other.html", "page.html"].sort());
    removeAbandonedSiblings(join(directory, "server"));
    expect(readdirSync(directory).sort()).toEqual([ours, "other.html", "page.html"].sort());
  });
});

describe("replaceFile", () => {
  it("leaves the file as it was, and no temporary file, when making the new one fails", () => {
    const directory = mkdtempSync(join(tmpdir(), "atomic-files-"));
    const path = join(directory, "server.cjs");
    writeFileAtomic(path, "the build before");
    expect(() =>
      replaceFile(path, (temporary) => {
        writeFileSync(temporary, "half of");
        throw new Error("the build failed");
      }),
    ).toThrow("the build failed");
    expect(readFileSync(path, "utf8")).toBe("the build before");
    expect(readdirSync(directory)).toEqual(["server.cjs"]);
  });
});
