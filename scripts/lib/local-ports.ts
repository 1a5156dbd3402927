/** Starting local servers for scripts, benchmarks and tests: a free loopback port, and waiting until it answers. */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Deadline, pause } from "./deadlines.js";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** A server that did not come up: the message names it, says why, and carries no stack worth reading. */
export class NotServingError extends Error {}

/** The end of what a server wrote, to close the message of one that did not come up; empty when it wrote nothing. */
export function lastOutput(output: string): string {
  const text = output.trim();
  return text ? `; its last output:\n${text.split("\n").slice(-20).join("\n")}` : "";
}

export interface ServingWait {
  /** The process that serves `url`: its end stops the wait at once, with its exit code. */
  child?: ChildProcess;
  /** The deadline on a quiet 4-core machine, scaled to this one (scripts/lib/deadlines.ts). */
  baseMs?: number;
  /** Its output so far, for the message when it does not come up. */
  output?: () => string;
  /** Time between tries; short only where the start-up itself is measured. */
  intervalMs?: number;
}

/**
 * Resolves once `url` answers at all (any status). Rejects with a NotServingError naming `name`
 * when its process ends first, or when the scaled deadline passes.
 */
export async function waitUntilServing(
  name: string,
  url: string,
  { child, baseMs = 60_000, output, intervalMs = 100 }: ServingWait = {},
): Promise<void> {
  const deadline = new Deadline(baseMs);
  const tail = () => lastOutput(output?.() ?? "");
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new NotServingError(`${name} (${url}) ended with ${child.exitCode ?? child.signalCode} before it answered${tail()}`);
    if (deadline.passed) throw new NotServingError(`${name} (${url}) did not answer ${deadline.describe()}${tail()}`);
    try {
      // A connection that opens but stalls is one more try, not the end of the wait.
      await fetch(url, { signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      await pause(intervalMs);
    }
  }
}
