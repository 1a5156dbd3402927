/**
 * Where every scrypt of the dashboard runs: at most `concurrency` at once, at most `waiting` queued,
 * and anything beyond refused at once. Each hash holds 128 MiB and a thread of libuv's small pool,
 * so an unbounded number of them in flight made every password check (and the process's memory)
 * wait on a flood of anonymous sign-ups; refusing keeps the wait of those admitted short.
 */
import { performance } from "node:perf_hooks";
import type { PasswordHashingLimits } from "./account-limits.js";
import { RetryLater, retryAfterSeconds } from "./retry-later.js";

/** What a hash takes before any has been measured: OWASP's cost on a typical core. */
const FIRST_ESTIMATE_MS = 250;

export class PasswordHashingQueue {
  private running = 0;
  private readonly queued: Array<() => void> = [];
  /** A moving average of how long one run takes, for `Retry-After`. */
  private averageMs = FIRST_ESTIMATE_MS;

  constructor(private readonly limits: PasswordHashingLimits) {}

  /** Whether a run asked for now would be refused. */
  get full(): boolean {
    return this.running >= this.limits.concurrency && this.queued.length >= this.limits.waiting;
  }

  /**
   * Runs `work` when a place is free; throws RetryLater("busy") when none is and the queue is full.
   * Work that may not wait (an anonymous sign-up) runs only on a place free now with nobody waiting
   * for one: a flood of it never stands in a member's way for more than the runs already started.
   */
  async run<T>(work: () => Promise<T>, { mayWait = true } = {}): Promise<T> {
    const refused = mayWait ? this.full : this.running >= this.limits.concurrency || this.queued.length > 0;
    if (refused) throw new RetryLater("busy", this.expectedWaitSeconds());
    if (this.running < this.limits.concurrency) this.running++;
    // A place is handed over by the run that ends, so `running` stays counted for this one.
    else await new Promise<void>((resolve) => this.queued.push(resolve));
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs += (performance.now() - started - this.averageMs) / 8;
      const next = this.queued.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** How long until everything ahead of a new run has run. */
  private expectedWaitSeconds(): number {
    return retryAfterSeconds((this.averageMs * (this.running + this.queued.length)) / this.limits.concurrency);
  }
}
