/**
 * `npm run build:conformance`: the conformance kit's package, `@partner-api/conformance`
 * (scripts/lib/conformance-package.ts), packed into dist/conformance/ under npm's name
 * (partner-api-conformance-<version>.tgz) and under one that stays (partner-api-conformance.tgz).
 * Another implementation's CI installs it with `npm install <tarball>` and runs
 * `npx partner-api-conformance --base-url URL --api-key KEY` (docs/conformance-kit.md).
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { replaceFile } from "./lib/atomic-files.js";
import { packConformanceKit } from "./lib/conformance-package.js";

const DIRECTORY = "dist/conformance";
const LATEST = "partner-api-conformance.tgz";
const VERSIONED = /^partner-api-conformance-\d+\.\d+\.\d+.*\.tgz$/;

const started = performance.now();
const workDir = await mkdtemp(join(tmpdir(), "partner-conformance-package-"));
try {
  const packed = await packConformanceKit(workDir);
  const bytes = await readFile(packed.tarball);
  const file = basename(packed.tarball);
  await mkdir(DIRECTORY, { recursive: true });
  for (const name of [file, LATEST]) replaceFile(join(DIRECTORY, name), (temporary) => writeFileSync(temporary, bytes));
  // Earlier versions go: the latest name is always this one.
  for (const other of readdirSync(DIRECTORY)) if (other !== file && VERSIONED.test(other)) rmSync(join(DIRECTORY, other), { force: true });
  console.log(
    `built ${DIRECTORY}/${file} (${packed.files.length} files, ${(packed.size / 1024).toFixed(1)} KiB packed) in ${Math.round(performance.now() - started)} ms`,
  );
  console.log(`install: npm install ${DIRECTORY}/${LATEST}, then: npx partner-api-conformance --base-url URL --api-key KEY`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
