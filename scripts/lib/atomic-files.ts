/**
 * Build outputs that no reader ever sees half-written: each file (or folder) is made under a name
 * of its own beside its final one and renamed into place, which replaces a file at once on one
 * file system. Two builds at once in one checkout (two `npm start`, or `npm test` beside one) then
 * each leave whole files, and a server starting meanwhile reads either the old file or the new one.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isRunning } from "../../server/platform/running-process.js";

/** The temporary names of `name`: a dot file that nothing serves or lists, carrying its maker's process id. */
const temporaryNames = (name: string) => new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(\\d+)-[0-9a-f]{8}\\.tmp$`);

/** A name beside `path`, at the same depth, unique to this call. */
export function temporarySibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
}

/** Removes the temporary siblings of `path` whose process no longer runs (a build stopped by Ctrl-C leaves its own). */
export function removeAbandonedSiblings(path: string): void {
  const pattern = temporaryNames(basename(path));
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) rmSync(join(dirname(path), name), { recursive: true, force: true });
  }
}

/**
 * Makes `path` by `make(temporary)` writing a temporary sibling, then renames that into place
 * (removing it on failure). Answers what `make` answered.
 */
export function replaceFile<T>(path: string, make: (temporary: string) => T): T {
  removeAbandonedSiblings(path);
  const temporary = temporarySibling(path);
  try {
    const made = make(temporary);
    renameSync(temporary, path);
    return made;
  } finally {
    rmSync(temporary, { force: true });
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  replaceFile(path, (temporary) => writeFileSync(temporary, data));
}
