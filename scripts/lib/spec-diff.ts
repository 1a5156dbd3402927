/** Breaking-change detection between two versions of a published document, with `redocly diff`. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

export interface DiffResult {
  /** A change that needs a major version: removed operations or fields, new required inputs, narrower types. */
  breaking: boolean;
  report: string;
}

export function diffDocuments(basePath: string, revisionPath: string): DiffResult {
  // A document unchanged since the base (most of them, in most pull requests) needs no Redocly process.
  if (readFileSync(basePath, "utf8") === readFileSync(revisionPath, "utf8")) return { breaking: false, report: "" };
  const result = spawnSync(
    "node_modules/.bin/redocly",
    ["diff", basePath, revisionPath, "--config", "redocly.yaml", "--fail-on", "major"],
    { encoding: "utf8" },
  );
  const report = `${result.stdout}${result.stderr}`;
  if (result.status !== 0 && !/major/.test(report))
    throw new Error(`redocly diff could not compare ${basePath} and ${revisionPath}:\n${report}`);
  return { breaking: result.status !== 0, report };
}
