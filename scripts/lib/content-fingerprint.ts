/**
 * The fingerprint of what a build reads: a hash of each input file's path and bytes (a missing
 * file counts as missing) and of the settings that shape the output (tool versions, options). By
 * content, not modification time: a checkout, `npm run generate` or a copy rewrites files without
 * changing them, and a file can change without its time moving forward.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";

export function contentFingerprint(files: Iterable<string>, settings: unknown): string {
  const hash = createHash("sha256");
  hash.update(`${JSON.stringify(settings)}\0`);
  for (const file of [...new Set(files)].sort()) {
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    // Each file's length goes before its bytes, so no two lists of files hash alike.
    hash.update(`${file}\0${bytes === undefined ? "missing" : bytes.length}\0`);
    if (bytes !== undefined) hash.update(bytes);
  }
  return hash.digest("hex");
}

/**
 * Whether any of `files` was modified at or after `sinceMs` (less a second, for file systems whose
 * clocks tick coarsely): a fingerprint taken after a build may then describe other bytes than the
 * build read. A file that does not exist is not counted: the fingerprint says it is missing.
 */
export function modifiedSince(files: Iterable<string>, sinceMs: number): boolean {
  for (const file of files) {
    const modified = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (modified !== undefined && modified >= sinceMs - 1_000) return true;
  }
  return false;
}
