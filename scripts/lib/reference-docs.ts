/**
 * The HTML reference of each published document, built with Redocly into dist/docs/ (served by the
 * developer portal at /docs/). Each page carries Redoc's scripts (--inlineBundle): loaded from a
 * CDN at view time, offline or behind a strict proxy they would show no operations.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { basename } from "node:path";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../../generated/deployment.js";

export const REFERENCE_DIRECTORY = "dist/docs";

const modified = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** Builds the pages into `outDir`; with `onlyStale`, only those older than their document. Answers how many it built. */
export function buildReferenceDocs(outDir = REFERENCE_DIRECTORY, { onlyStale = false } = {}): number {
  mkdirSync(outDir, { recursive: true });
  let built = 0;
  for (const bundle of [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)]) {
    const output = `${outDir}/${basename(bundle, ".yml")}.html`;
    if (onlyStale && modified(output) >= modified(bundle)) continue;
    execFileSync("node_modules/.bin/redocly", ["build-docs", bundle, "--inlineBundle", "--output", output], { stdio: "ignore" });
    built++;
  }
  return built;
}
