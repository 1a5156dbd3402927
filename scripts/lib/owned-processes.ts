/**
 * Child processes that never outlive the process that started them. Each is the leader of a process
 * group of its own, so stopping it stops what it started in turn (tsx runs the script in a child;
 * `npm run mock` runs Prism in another): a signal to the leader alone left Prism running after a
 * failed test run. Every group still alive when this process ends is killed: at a normal exit, an
 * uncaught error, or SIGINT, SIGTERM and SIGHUP (Ctrl-C, a runner stopping its workers).
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { Deadline, pause } from "./deadlines.js";

/** Process group ids of the children started here and not yet stopped. */
const groups = new Set<number>();

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Every process of the group has ended already.
  }
}

let hooked = false;
function killGroupsAtExit(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    for (const groupId of groups) signalGroup(groupId, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      for (const groupId of groups) signalGroup(groupId, "SIGKILL");
      groups.clear();
      // Ends this process as the signal would have without the handler.
      process.kill(process.pid, signal);
    });
  }
}

/** Starts `command` as the leader of a new process group that this process stops, at the latest when it ends. */
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  killGroupsAtExit();
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  return child;
}

/** Whether a group's leader has ended, for a wait. */
const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Ends `child`'s group: with `graceMs`, SIGTERM first and SIGKILL once the leader had that long
 * (scaled to the machine) to stop cleanly; without, SIGKILL at once. Resolves when the leader has ended.
 */
async function endGroup(child: ChildProcess, graceMs: number | null): Promise<void> {
  const groupId = child.pid;
  if (groupId === undefined) return;
  const exited = ended(child) ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (graceMs !== null) {
    signalGroup(groupId, "SIGTERM");
    for (const deadline = new Deadline(graceMs); !ended(child) && !deadline.passed; ) await pause(20);
  }
  // What the leader left behind, and the leader itself if it did not stop in time.
  signalGroup(groupId, "SIGKILL");
  await exited;
  groups.delete(groupId);
}

/** Stops `child` and everything it started: SIGTERM, then SIGKILL after `graceMs`. */
export const stopOwned = (child: ChildProcess, { graceMs = 10_000 } = {}): Promise<void> => endGroup(child, graceMs);

/** Kills `child`'s whole group at once (a crash, as kill -9 makes one). */
export const killOwned = (child: ChildProcess): Promise<void> => endGroup(child, null);
