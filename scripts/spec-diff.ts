/**
 * `npm run spec:diff -- BASE_REF`: compares every published document with its version at a git
 * revision (a release tag, or the target branch of a pull request) and fails on a breaking change.
 * Within v1 only additive changes are allowed (see the spec's versioning policy).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { diffDocuments } from "./lib/spec-diff.js";

const baseRef = process.argv[2];
if (!baseRef) {
  console.error("usage: npm run spec:diff -- BASE_REF   (e.g. origin/main or v1.0.0)");
  process.exit(2);
}

const workDir = mkdtempSync(join(tmpdir(), "spec-diff-"));
let breaking = 0;
for (const path of [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)]) {
  let base: string;
  try {
    base = execFileSync("git", ["show", `${baseRef}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    console.log(`${path}: not at ${baseRef}, a new document: nothing to compare`);
    continue;
  }
  const basePath = join(workDir, path.replaceAll("/", "_"));
  writeFileSync(basePath, base);
  const { breaking: isBreaking, report } = diffDocuments(basePath, path);
  const summary = /(\d+) major, (\d+) minor, (\d+) patch/.exec(report)?.[0] ?? "no changes";
  console.log(`${path}: ${isBreaking ? "BREAKING" : "compatible"} (${summary})`);
  if (isBreaking) {
    breaking++;
    console.log(report);
  }
}
process.exit(breaking > 0 ? 1 : 0);
