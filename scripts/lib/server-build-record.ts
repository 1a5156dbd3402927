/**
 * What makes a server build current (build-records.ts), so that `npm start` skips it when nothing
 * it reads changed. Its fingerprint covers:
 * - every module the build bundled, the project's and each dependency's, by content;
 * - the file names in each of the project's folders it bundled from, so that a new file an import
 *   would now resolve to counts too;
 * - package.json, both lockfiles (npm rewrites node_modules/.package-lock.json at every install)
 *   and tsconfig.json, which steer how imports resolve;
 * - the build's own scripts, esbuild's version, and Node's version, platform and options (the
 *   server's and NODE_OPTIONS): V8 accepts a code cache only from the same Node and flags.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { version as esbuildVersion } from "esbuild";
import { type BuildRecord, isCurrent, outputIdentities, readBuildRecords, saveBuildRecord } from "./build-records.js";
import { contentFingerprint, modifiedSince } from "./content-fingerprint.js";
import { SERVER_NODE_OPTIONS } from "./server-node-options.js";
import { BUNDLE_FILE, CODE_CACHE_FILE, ENTRY_FILE } from "../../server/assembly/bundle-files.js";

const STEP = "server";

/** Files that shape every build besides the modules it bundles, relative to the checkout. */
export const SERVER_BUILD_FILES = [
  "package.json",
  "package-lock.json",
  "node_modules/.package-lock.json",
  "tsconfig.json",
  "scripts/lib/server-build.ts",
  "scripts/lib/code-cache-priming.ts",
  "scripts/lib/server-node-options.ts",
] as const;

const fromNodeModules = (path: string) => path.split("/").includes("node_modules");

/** The fingerprint of a build that bundled `inputs`, as the checkout and this Node hold them now. */
export function serverBuildFingerprint(inputs: readonly string[]): string {
  const folders = [...new Set(inputs.filter((input) => !fromNodeModules(input)).map(dirname))].sort();
  return contentFingerprint([...SERVER_BUILD_FILES, ...inputs], {
    folders: Object.fromEntries(folders.map((folder) => [folder, existsSync(folder) ? readdirSync(folder).sort() : null])),
    esbuild: esbuildVersion,
    node: [process.version, process.versions.v8, process.platform, process.arch],
    nodeOptions: [...SERVER_NODE_OPTIONS, process.env.NODE_OPTIONS ?? ""],
  });
}

/** The record of the build in `directory` if it was made from what it would be made from now and is still as written. */
export function currentServerBuild(directory: string): (BuildRecord & { inputs: string[] }) | undefined {
  const record = readBuildRecords(directory)[STEP];
  if (record?.inputs === undefined) return undefined;
  return isCurrent(directory, record, serverBuildFingerprint(record.inputs)) ? { ...record, inputs: record.inputs } : undefined;
}

/**
 * Records the build just made in `directory` from `inputs`, begun at `startedMs`. A module edited
 * while esbuild ran may be in the bundle as it was before: then nothing is recorded, and the next
 * start builds again.
 */
export function recordServerBuild(directory: string, inputs: readonly string[], startedMs: number): void {
  if (modifiedSince([...SERVER_BUILD_FILES, ...inputs], startedMs)) return;
  saveBuildRecord(directory, STEP, {
    fingerprint: serverBuildFingerprint(inputs),
    inputs: [...inputs],
    outputs: outputIdentities(directory, [ENTRY_FILE, BUNDLE_FILE, CODE_CACHE_FILE]),
  });
}
