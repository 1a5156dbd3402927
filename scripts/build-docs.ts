/**
 * Builds the HTML reference docs of each published document into dist/docs/. Each page carries
 * Redoc's scripts (--inlineBundle): loaded from a CDN at view time, offline or behind a strict proxy
 * they would show no operations (test/e2e/reference-docs.test.ts opens them with the network off).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { basename } from "node:path";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";

const outDir = process.argv[2] ?? "dist/docs";
mkdirSync(outDir, { recursive: true });
for (const bundle of [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)]) {
  const output = `${outDir}/${basename(bundle, ".yml")}.html`;
  execFileSync("node_modules/.bin/redocly", ["build-docs", bundle, "--inlineBundle", "--output", output], { stdio: "inherit" });
}
