/**
 * Docs that cannot go stale: every path named in Markdown and in comments is there, server/README.md
 * names every folder of the server, and validator/README.md every patch file of validator/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commentsOf, namedPaths, pathChecker, pathsNamedIn } from "./support/named-paths.js";

const ROOT = process.cwd();
/** Folders of a built artifact, named where that artifact is described: not in the checkout. */
const BUILT = [{ file: /^(?:conformance\/README\.md|conformance\/src\/documents\.ts|docs\/conformance-kit\.md)$/, path: "documents/" }];

const serverFolders = (folder = "server"): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !["assets", "migrations"].includes(entry.name))
    .flatMap((entry) => [`${folder}/${entry.name}`, ...serverFolders(`${folder}/${entry.name}`)]);

describe("paths named in docs and comments", () => {
  it("are all there", () => {
    const exists = pathChecker(ROOT);
    const missing = namedPaths(ROOT)
      .filter((named) => !named.file.startsWith("bench/results/"))
      .filter((named) => !BUILT.some(({ file, path }) => file.test(named.file) && named.path === path))
      .filter((named) => !exists(named))
      .map(({ file, line, path }) => `${file}:${line} names ${path}`);
    expect(missing).toEqual([]);
  });

  it("are read from comments only, with folders in backticks and files with a folder in front", () => {
    const source = ['const url = "https://example.com/a/b.js"; // see dns/record-rules.ts', "/* `store/postgres/` and x/ */"].join("\n");
    expect(pathsNamedIn(commentsOf(source))).toEqual([
      { line: 1, path: "dns/record-rules.ts" },
      { line: 2, path: "store/postgres/" },
    ]);
  });

  it("are refused when they are not there", () => {
    const exists = pathChecker(ROOT);
    expect(exists({ file: "server/assembly/app.ts", line: 1, path: "embed/no-such-file.ts" })).toBe(false);
    expect(exists({ file: "server/assembly/app.ts", line: 1, path: "dns/record-rules.ts" })).toBe(true);
    expect(exists({ file: "docs/decisions.md", line: 1, path: "../server/assembly/app.ts" })).toBe(true);
  });
});

describe("server/README.md", () => {
  it("names every folder of the server", () => {
    const readme = readFileSync(join(ROOT, "server/README.md"), "utf8");
    const unnamed = serverFolders().filter((folder) => {
      const relative = folder.slice("server/".length);
      return !readme.includes(`\`${relative}/\``) && !readme.includes(`\`${folder}/\``);
    });
    expect(unnamed).toEqual([]);
  });
});

describe("server/api/validator/README.md", () => {
  it("lists every patch file of the validator", () => {
    const readme = readFileSync(join(ROOT, "server/api/validator/README.md"), "utf8");
    const files = readdirSync(join(ROOT, "server/api/validator")).filter((name) => name.endsWith(".ts"));
    expect(files.filter((name) => !readme.includes(name))).toEqual([]);
  });
});
