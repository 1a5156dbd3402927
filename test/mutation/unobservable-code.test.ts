/**
 * The list of code no HTTP check can observe (test/mutation/unobservable-code.mjs) names code that
 * exists: an entry whose function was renamed or whose statement was rewritten would stop
 * matching in silence, and the mutants it was written for would count again as survivors, or
 * worse, a new statement that happens to match would be ignored unread. Each file is parsed as
 * Stryker's instrumenter parses it (Babel's TypeScript preset, wrapped in a File) and walked with
 * the ignorer itself.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
// @ts-expect-error: plain JavaScript modules Stryker loads as plugins, without types.
import { UNOBSERVABLE_CODE } from "./unobservable-code.mjs";
// @ts-expect-error: as above.
import { strykerPlugins } from "./unobservable-ignorer.mjs";

interface Entry {
  file: string;
  function?: string;
  code?: string;
  reason: string;
}

// Babel as @stryker-mutator/instrumenter resolves it, so the parse is the instrumenter's.
const require = createRequire(createRequire(import.meta.url).resolve("@stryker-mutator/instrumenter"));
const babel = require("@babel/core");
const traverse = require("@babel/traverse").default;
const ignorer = strykerPlugins[0].value as { shouldIgnore(path: unknown): string | undefined };

const walked = new Map<string, Map<string, Set<number>>>();

/** The reasons the ignorer gives in `file`, each with the lines it covers (each file walked once). */
function ignoredIn(file: string): Map<string, Set<number>> {
  const known = walked.get(file);
  if (known) return known;
  const code = readFileSync(file, "utf8");
  const ast = babel.parseSync(code, {
    filename: file,
    parserOpts: { ranges: true },
    configFile: false,
    babelrc: false,
    presets: [[require.resolve("@babel/preset-typescript"), { ignoreExtensions: true }]],
  });
  const wrapped = new babel.File({ filename: file }, { code, ast, inputMap: null });
  const reasons = new Map<string, Set<number>>();
  // As Stryker's IgnorerBookkeeper does: a node inside an ignored one is ignored with its reason, unasked.
  let active: { node: unknown; reason: string } | undefined;
  traverse(wrapped.ast, {
    enter(path: { node: { loc?: { start: { line: number } } } }) {
      if (!active) {
        const reason = ignorer.shouldIgnore(path);
        if (reason) active = { node: path.node, reason };
      }
      if (active && path.node.loc) reasons.set(active.reason, (reasons.get(active.reason) ?? new Set()).add(path.node.loc.start.line));
    },
    exit(path: { node: unknown }) {
      if (active?.node === path.node) active = undefined;
    },
  });
  walked.set(file, reasons);
  return reasons;
}

const entries = UNOBSERVABLE_CODE as Entry[];

describe("the code Stryker is told no HTTP check can observe", () => {
  test.each(entries.map((entry) => [`${entry.file} ${entry.function ?? entry.code}`, entry] as const))(
    "%s is in the code, with a reason",
    (_name, entry) => {
      expect(entry.reason.length).toBeGreaterThan(20);
      const source = readFileSync(entry.file, "utf8");
      if (entry.function !== undefined) expect(source).toMatch(new RegExp(`\\b${entry.function}\\b`));
      if (entry.code !== undefined) expect(source.replace(/\s+/g, " ")).toContain(entry.code.replace(/\s+/g, " "));
      expect(ignoredIn(entry.file).get(entry.reason)?.size ?? 0).toBeGreaterThan(0);
    },
  );

  test("leaves the rest of a file to the mutants: the API's lookup of a key is measured", () => {
    const ignoredLines = new Set([...ignoredIn("server/partners/keys/api-keys.ts").values()].flatMap((lines) => [...lines]));
    const source = readFileSync("server/partners/keys/api-keys.ts", "utf8").split("\n");
    const lookup = source.findIndex((line) => line.includes("const stored = await store?.findKey(hex, now);")) + 1;
    expect(lookup).toBeGreaterThan(0);
    expect(ignoredLines.has(lookup)).toBe(false);
  });
});
