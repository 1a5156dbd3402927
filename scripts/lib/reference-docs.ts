/**
 * The HTML reference of each published document, built with Redocly into dist/docs/ (served by the
 * developer portal at /docs/). Each page carries Redoc's scripts (--inlineBundle): loaded from a
 * CDN at view time, offline or behind a strict proxy they would show no operations. Nothing else
 * leaves the page either: telemetry is off (REDOCLY_TELEMETRY=off, which build-docs also hands to
 * the page's Redoc) and Redoc's logo is inside the page (redoc-logo-patch.ts).
 *
 * A page is rebuilt only when what makes it changed (build-records.ts): its document's bytes,
 * Redocly's configuration and version, and this build's own code and options.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { replaceFile } from "./atomic-files.js";
import { type FileIdentity, fileIdentity, isCurrent, readBuildRecords, saveBuildRecord } from "./build-records.js";
import { contentFingerprint } from "./content-fingerprint.js";
import { withLocalRedocLogo } from "./redoc-logo-patch.js";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../../generated/deployment.js";

export const REFERENCE_DIRECTORY = "dist/docs";

const BUILD_ARGUMENTS = ["--inlineBundle"] as const;
/** Off for the CLI's own reports, and for the page: build-docs sets Redoc's `disableTelemetry` from it. */
const BUILD_ENVIRONMENT = { REDOCLY_TELEMETRY: "off" } as const;

const ownSource = (url: string) => relative(process.cwd(), fileURLToPath(url));

/** Besides its document, what every page is made from (relative to the checkout). */
export const REFERENCE_BUILD_FILES = [
  "redocly.yaml",
  "node_modules/@redocly/cli/package.json",
  "node_modules/@redocly/openapi-core/package.json",
  ownSource(import.meta.url),
  ownSource(new URL("./redoc-logo-patch.ts", import.meta.url).href),
];

const pageFingerprint = (bundle: string) =>
  contentFingerprint([bundle, ...REFERENCE_BUILD_FILES], { arguments: BUILD_ARGUMENTS, environment: BUILD_ENVIRONMENT });

/** Builds a page and answers its identity, taken before it is renamed into place (fileIdentity). */
function buildPage(bundle: string, output: string): FileIdentity {
  return replaceFile(output, (temporary) => {
    execFileSync("node_modules/.bin/redocly", ["build-docs", bundle, ...BUILD_ARGUMENTS, "--output", temporary], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...BUILD_ENVIRONMENT },
    });
    writeFileSync(temporary, withLocalRedocLogo(readFileSync(temporary, "utf8")));
    return fileIdentity(temporary);
  });
}

export interface ReferenceDocsOptions {
  /** Only the pages not built in the directory from what makes them now. */
  onlyStale?: boolean;
  /** The documents to render, one page each named after it (default: every published document). */
  documents?: readonly string[];
}

const PUBLISHED = [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)];

/** Builds the pages into `outDir`. Answers how many it built. */
export function buildReferenceDocs(
  outDir = REFERENCE_DIRECTORY,
  { onlyStale = false, documents = PUBLISHED }: ReferenceDocsOptions = {},
): number {
  mkdirSync(outDir, { recursive: true });
  const records = readBuildRecords(outDir);
  let built = 0;
  for (const bundle of documents) {
    const page = `${basename(bundle, ".yml")}.html`;
    // Taken before the build: a document changed meanwhile makes the next build differ from it.
    const fingerprint = pageFingerprint(bundle);
    if (onlyStale && isCurrent(outDir, records[page], fingerprint)) continue;
    saveBuildRecord(outDir, page, { fingerprint, outputs: { [page]: buildPage(bundle, join(outDir, page)) } });
    built++;
  }
  return built;
}
