/**
 * The client's package as partners install it from the developer portal (server/dashboard/portal.ts):
 * `npm pack` of client/ (packClient, scripts/lib/client-package.ts) into dist/client/, under npm's
 * name (partner-api-client-<version>.tgz) and under a name that stays (partner-api-client.tgz).
 * Rebuilt only when what goes into it changed (build-records.ts): the package's files, the
 * generated types it copies, the compiler's version, and this build's code.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { replaceFile } from "./atomic-files.js";
import { type FileIdentity, fileIdentity, isCurrent, readBuildRecords, saveBuildRecord } from "./build-records.js";
import { CLIENT_DIR, packClient } from "./client-package.js";
import { contentFingerprint } from "./content-fingerprint.js";
import { clientTarballName, clientTarballVersion, LATEST_CLIENT_TARBALL } from "../../server/dashboard/client-tarball-files.js";

export const CLIENT_TARBALL_DIRECTORY = "dist/client";

const STEP = "client";
/** What the client build reads outside client/: the generated types it copies, and the compiler's version. */
const GENERATED_TYPES = "generated/types";
const COMPILER = "node_modules/typescript/package.json";
/** Folders of client/ that are outputs or installs, not sources. */
const NOT_SOURCES = new Set(["dist", ".build", "node_modules"]);

const ownSource = (url: string) => relative(process.cwd(), fileURLToPath(url));

/** Every file the tarball is made from, relative to the checkout. */
function inputFiles(): string[] {
  const files = (root: string) =>
    readdirSync(root, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(process.cwd(), join(entry.parentPath, entry.name)));
  const client = readdirSync(CLIENT_DIR, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCES.has(entry.name)) return [];
    const path = join(CLIENT_DIR, entry.name);
    return entry.isDirectory() ? files(path) : [relative(process.cwd(), path)];
  });
  return [
    ...client,
    ...files(GENERATED_TYPES),
    COMPILER,
    ownSource(import.meta.url),
    ownSource(new URL("./client-package.ts", import.meta.url).href),
  ];
}

export interface ClientTarballOutcome {
  built: boolean;
  /** The versioned name, in the directory. */
  file: string;
}

/** Packs the client into `directory`; with `onlyStale`, only when it was not packed there from what it is made of now. */
export async function buildClientTarball(directory = CLIENT_TARBALL_DIRECTORY, { onlyStale = false } = {}): Promise<ClientTarballOutcome> {
  const { version } = JSON.parse(readFileSync(join(CLIENT_DIR, "package.json"), "utf8")) as { version: string };
  const file = clientTarballName(version);
  // Taken before the build: a file changed meanwhile makes the next build differ from it.
  const fingerprint = contentFingerprint(inputFiles(), {});
  if (onlyStale && isCurrent(directory, readBuildRecords(directory)[STEP], fingerprint)) return { built: false, file };
  const workDir = await mkdtemp(join(tmpdir(), "partner-client-tarball-"));
  const outputs: Record<string, FileIdentity> = {};
  try {
    const packed = await packClient(workDir);
    if (relative(workDir, packed.tarball) !== file) throw new Error(`npm packed ${packed.tarball}, not ${file}`);
    const bytes = await readFile(packed.tarball);
    await mkdir(directory, { recursive: true });
    for (const name of [file, LATEST_CLIENT_TARBALL])
      outputs[name] = replaceFile(join(directory, name), (temporary) => {
        writeFileSync(temporary, bytes);
        return fileIdentity(temporary);
      });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  // Earlier versions go: the portal offers the one it was built with.
  for (const other of readdirSync(directory))
    if (other !== file && clientTarballVersion(other) !== undefined) rmSync(join(directory, other), { force: true });
  saveBuildRecord(directory, STEP, { fingerprint, outputs });
  return { built: true, file };
}
