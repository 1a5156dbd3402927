/**
 * One process per PGlite directory (PARTNER_API_DATA_DIR). PGlite is a whole PostgreSQL inside the
 * process, with no lock of its own: two processes on one directory each write its files as if alone,
 * and corrupt it. So the directory holds a lock file naming the process that opened it; another
 * process is refused while that one lives. A lock whose holder is gone (killed with SIGKILL, the
 * machine restarted) is taken over: whether the holder lives is asked of the system, by its pid.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isRunning } from "../../platform/running-process.js";

/** In the directory itself, so it goes wherever the data goes; PostgreSQL ignores files it does not know. */
export const LOCK_FILE = ".partner-api.lock";

/** Attempts at taking a lock that was left behind, in case others take it over at the same moment. */
const ATTEMPTS = 3;

/** The directory is open in another live process: one line naming the directory and that process. */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly holderPid: number,
  ) {
    super(
      `${directory} is in use by another process (pid ${holderPid}): an embedded database serves one process; stop that one, or use DATABASE_URL for several instances`,
    );
    this.name = "DataDirectoryInUseError";
  }
}

export interface DataDirectoryLock {
  /** Gives the directory up; also done when the process exits. */
  release(): void;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The pid a lock file names; null when it names none (unreadable content); undefined when the file is gone. */
function holderOf(path: string): number | null | undefined {
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  const pid = Number(content.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Creates the lock file with this process's pid in one step: nobody ever reads it half written. */
function createLock(path: string): boolean {
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, `${process.pid}\n`);
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Removes a lock whose process is gone. Moved aside first, which only one process can do
 * to one file: should another have replaced it meanwhile with its own, live lock, that one is put
 * back and refuses this process.
 */
function removeLeftLock(path: string, directory: string): void {
  const aside = `${path}.${process.pid}.left`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  const moved = holderOf(aside);
  if (typeof moved === "number" && moved !== process.pid && isRunning(moved)) {
    try {
      linkSync(aside, path);
    } catch {
      // Taken again meanwhile: the new lock stands, and its holder is who refuses this process.
    }
    unlinkSync(aside);
    throw new DataDirectoryInUseError(directory, moved);
  }
  unlinkSync(aside);
}

/** Lock files this process holds: its own pid in one of them is no lock left behind. */
const heldHere = new Set<string>();

/** Locks `directory` (created if missing) for this process, or throws DataDirectoryInUseError. */
export function lockDataDirectory(directory: string): DataDirectoryLock {
  const absolute = resolve(directory);
  const path = join(absolute, LOCK_FILE);
  if (heldHere.has(path)) throw new DataDirectoryInUseError(absolute, process.pid);
  mkdirSync(absolute, { recursive: true });
  for (let attempt = 1; !createLock(path); attempt++) {
    const holder = holderOf(path);
    // Our own pid in a lock we have not made: left by an earlier process that had it (a container restarted).
    if (typeof holder === "number" && holder !== process.pid && isRunning(holder)) throw new DataDirectoryInUseError(absolute, holder);
    if (attempt === ATTEMPTS) throw new Error(`cannot lock ${absolute}: its lock file ${LOCK_FILE} keeps changing`);
    if (holder !== undefined) removeLeftLock(path, absolute);
  }
  heldHere.add(path);
  const release = () => {
    process.off("exit", release);
    heldHere.delete(path);
    // Only our own: never a lock another process took after this one's was removed by hand.
    if (holderOf(path) === process.pid) unlinkSync(path);
  };
  process.on("exit", release);
  return { release };
}
