/**
 * The lock of a PGlite directory (server/store/postgres/data-directory-lock.ts): held by one live
 * process at a time; a lock left by a process that is gone is taken over. Other processes here are
 * real ones, so whether they live is the system's answer, as in operation.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirectoryInUseError, LOCK_FILE, lockDataDirectory } from "../../../server/store/postgres/data-directory-lock.js";

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "data-lock-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

/** A process that runs until the test ends. */
function liveProcess(): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  cleanups.push(() => child.kill("SIGKILL"));
  return child.pid!;
}

/** The pid of a process that has ended. */
const endedProcess = () => spawnSync(process.execPath, ["-e", ""]).pid;

describe("lockDataDirectory", () => {
  it("creates the directory and a lock naming this process, and removes the lock at release", () => {
    const directory = join(temporaryDirectory(), "data");
    const lock = lockDataDirectory(directory);
    expect(readFileSync(join(directory, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(join(directory, LOCK_FILE))).toBe(false);
  });

  it("refuses a directory another live process holds, naming the directory and that process", () => {
    const directory = temporaryDirectory();
    const holder = liveProcess();
    writeFileSync(join(directory, LOCK_FILE), `${holder}\n`);
    expect(() => lockDataDirectory(directory)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(directory)).toThrow(`${directory} is in use by another process (pid ${holder})`);
    expect(readFileSync(join(directory, LOCK_FILE), "utf8")).toBe(`${holder}\n`);
  });

  it.each([
    ["a process that ended (killed, never released)", () => `${endedProcess()}\n`],
    ["this process's own pid, which it did not write (a restarted container)", () => `${process.pid}\n`],
    ["no pid at all", () => ""],
  ])("takes over a lock left by %s", (_case, content) => {
    const directory = temporaryDirectory();
    writeFileSync(join(directory, LOCK_FILE), content());
    const lock = lockDataDirectory(directory);
    expect(readFileSync(join(directory, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    lock.release();
  });

  it("refuses a directory this process holds already: opened twice, it would be written as if by two", () => {
    const directory = temporaryDirectory();
    const lock = lockDataDirectory(directory);
    expect(() => lockDataDirectory(directory)).toThrow(`${directory} is in use by another process (pid ${process.pid})`);
    lock.release();
    lockDataDirectory(directory).release();
  });

  it("leaves a lock alone at release once it is no longer this process's", () => {
    const directory = temporaryDirectory();
    const lock = lockDataDirectory(directory);
    const other = liveProcess();
    writeFileSync(join(directory, LOCK_FILE), `${other}\n`);
    lock.release();
    expect(readFileSync(join(directory, LOCK_FILE), "utf8")).toBe(`${other}\n`);
  });
});
