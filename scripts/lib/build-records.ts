/**
 * What a cached build leaves beside its outputs (`.build-record.json` in their directory): for each
 * build step, the fingerprint of what it read (scripts/lib/content-fingerprint.ts) and the identity
 * of each file it wrote. A step is current, and skipped, when what it reads has the recorded
 * fingerprint and its files are still the ones it wrote: a file another process replaced since, or
 * one deleted, makes it build again.
 *
 * Outputs are known by size, modification time and inode rather than by a hash of their bytes:
 * every write here renames a new file into place (scripts/lib/atomic-files.ts), which changes all
 * three, and reading them costs a `stat` instead of hashing megabytes at every start.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-files.js";

export const RECORD_FILE = ".build-record.json";

export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface BuildRecord {
  /** The fingerprint of what the step read when it built. */
  fingerprint: string;
  /** The files it wrote, by name in the directory. */
  outputs: Record<string, FileIdentity>;
  /** For a step whose inputs are known only once it ran (the server's modules): the files it read. */
  inputs?: string[];
}

/** The records of `directory`, by step; none when there is no record or it cannot be read. */
export function readBuildRecords(directory: string): Record<string, BuildRecord> {
  try {
    const records = JSON.parse(readFileSync(join(directory, RECORD_FILE), "utf8")) as unknown;
    return typeof records === "object" && records !== null ? (records as Record<string, BuildRecord>) : {};
  } catch {
    return {};
  }
}

function identityOf(path: string): FileIdentity | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats && { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/**
 * The identity of a file just written. Renaming keeps it: taken from a temporary file before it is
 * renamed into place, it tells that file from any another build renames over it afterwards.
 */
export function fileIdentity(path: string): FileIdentity {
  const identity = identityOf(path);
  if (!identity) throw new Error(`${path} was not written`);
  return identity;
}

export function outputIdentities(directory: string, files: readonly string[]): Record<string, FileIdentity> {
  return Object.fromEntries(files.map((file) => [file, fileIdentity(join(directory, file))]));
}

/** Whether `record` was made from inputs with `fingerprint` and its files are still in `directory` as written. */
export function isCurrent(directory: string, record: BuildRecord | undefined, fingerprint: string): boolean {
  if (record?.fingerprint !== fingerprint) return false;
  const outputs = Object.entries(record.outputs ?? {});
  return (
    outputs.length > 0 &&
    outputs.every(([file, recorded]) => {
      const identity = identityOf(join(directory, file));
      return identity?.size === recorded.size && identity.mtimeMs === recorded.mtimeMs && identity.ino === recorded.ino;
    })
  );
}

/**
 * Records `step` in `directory`, keeping the other steps' records. Two builds recording at once
 * may drop one's record: that step is then built once more, never skipped wrongly.
 */
export function saveBuildRecord(directory: string, step: string, record: BuildRecord): void {
  writeFileAtomic(join(directory, RECORD_FILE), `${JSON.stringify({ ...readBuildRecords(directory), [step]: record }, null, 1)}\n`);
}
