/**
 * Deadlines that scale with the machine, for everything that waits on another process or on a
 * test: a wait is over when the thing is ready, and the deadline only ends a wait for something
 * that hangs. Each base deadline is what a quiet machine of four cores needs with room to spare;
 * the factor grows with fewer cores and with the load other work puts on them (a shared 2-core
 * machine running two `npm test` at once), and is read again while a wait goes on, so a load that
 * rises during the wait extends it.
 *
 * PARTNER_API_SLOWDOWN (a number ≥ 1) fixes the factor, for a machine whose load average says
 * nothing of its speed (a throttled container).
 */
import { availableParallelism, loadavg } from "node:os";

export const SLOWDOWN_SETTING = "PARTNER_API_SLOWDOWN";

export interface Machine {
  cores: number;
  /** The load average over the last minute: processes running or waiting to run. */
  load: number;
  /** PARTNER_API_SLOWDOWN, if set. */
  setting?: string;
}

/** How many times longer than on a quiet 4-core machine things may take on `machine`. */
export function slowdownOf({ cores, load, setting }: Machine): number {
  const fixed = Number(setting);
  if (setting !== undefined && setting !== "" && Number.isFinite(fixed) && fixed >= 1) return fixed;
  // Runnable processes per core: past one, each waits its turn.
  const queued = load / cores;
  return Math.max(1, 4 / cores) * Math.max(1, queued);
}

/** The slowdown of this machine now. */
export const slowdown = (): number =>
  slowdownOf({ cores: availableParallelism(), load: loadavg()[0]!, setting: process.env[SLOWDOWN_SETTING] });

/** `baseMs` on this machine now. */
export const scaled = (baseMs: number): number => Math.round(baseMs * slowdown());

/** A deadline for one wait, read again at each check so that it follows the machine's load. */
export class Deadline {
  private readonly started = performance.now();

  constructor(private readonly baseMs: number) {}

  get elapsedMs(): number {
    return performance.now() - this.started;
  }

  get passed(): boolean {
    return this.elapsedMs > scaled(this.baseMs);
  }

  /** "within 123 s (60 s here scaled ×2.1 for this machine's cores and load)", for the message of a wait that ran out. */
  describe(): string {
    const factor = slowdown();
    return `within ${Math.round(this.elapsedMs / 1000)} s (a base of ${this.baseMs / 1000} s scaled ×${factor.toFixed(1)} for this machine's cores and load; ${SLOWDOWN_SETTING} sets the factor)`;
  }
}

/** Resolves after `ms`: only between the polls of a wait, never as the wait itself. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
