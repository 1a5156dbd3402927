import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dayNumber, prismViolations, readCorpus, sampleOf } from "../../scripts/lib/mutation-corpus.js";

describe("the mutation corpus", () => {
  const folder = mkdtempSync(join(tmpdir(), "mutation-corpus-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("reads each patch's name and first-line description, in name order", () => {
    writeFileSync(join(folder, "b-second.patch"), "# a refused key answered 403\ndiff --git a/x b/x\n");
    writeFileSync(join(folder, "a-first.patch"), "#renewal charges one year\ndiff --git a/x b/x\n");
    writeFileSync(join(folder, "notes.md"), "not a patch");
    expect(readCorpus(folder).map(({ name, description }) => [name, description])).toEqual([
      ["a-first", "renewal charges one year"],
      ["b-second", "a refused key answered 403"],
    ]);
  });

  it("samples consecutive mutants from the day's position, wrapping round, so every one comes in turn", () => {
    const corpus = ["a", "b", "c", "d", "e"];
    expect(sampleOf(corpus, 2, 0)).toEqual(["a", "b"]);
    expect(sampleOf(corpus, 3, 4)).toEqual(["e", "a", "b"]);
    expect(sampleOf(corpus, 2, 7)).toEqual(["c", "d"]);
    expect(sampleOf(corpus, 9, 3)).toEqual(corpus);
    const covered = new Set(Array.from({ length: corpus.length }, (_, day) => sampleOf(corpus, 1, day)).flat());
    expect(covered.size).toBe(corpus.length);
  });

  it("takes the same day all day, in UTC", () => {
    expect(dayNumber(new Date("2026-11-26T00:00:00Z"))).toBe(dayNumber(new Date("2026-11-26T23:59:59Z")));
    expect(dayNumber(new Date("2026-11-27T00:00:00Z"))).toBe(dayNumber(new Date("2026-11-26T00:00:00Z")) + 1);
  });

  it("holds patches that each apply to this checkout: a patch cut against another tree tests nothing", () => {
    const corpus = readCorpus(join(process.cwd(), "test", "conformance-kit", "mutants"));
    expect(corpus.length).toBeGreaterThan(0);
    const broken = corpus.flatMap(({ name, patch }) => {
      const check = spawnSync("git", ["apply", "--check", "--whitespace=nowarn", patch], { encoding: "utf8" });
      return check.status === 0 ? [] : [`${name}: ${check.stderr.trim().split("\n")[0]}`];
    });
    expect(broken).toEqual([]);
  });

  it("reads Prism's violations without colours, numbers and generated ids, each once", () => {
    const log = [
      "[10:01:02 AM] › [VALIDATOR] \u001b[31m✖  error\u001b[39m     Violation: response.body.total_spent Response body property total_spent must be string",
      "[10:01:05 AM] › [VALIDATOR] ✖  error     Violation: response.body.total_spent Response body property total_spent must be string",
      "[10:01:06 AM] › [PROXY] ℹ  info      Forwarding GET /api/v1/users/user_8f3kQ2pLx9",
      "[10:01:07 AM] › [VALIDATOR] ⚠  warning   Violation: response.header.x-request-id Response header req_Ab12Cd34Ef56 missing",
    ].join("\n");
    expect(prismViolations(log)).toEqual([
      "Violation: response.body.total_spent Response body property total_spent must be string",
      "Violation: response.header.x-request-id Response header <id> missing",
    ]);
  });
});
