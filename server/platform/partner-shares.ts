/**
 * Each partner's share of the units of work one instance runs at once, so one partner's load
 * cannot hold every connection of the pool: a partner runs at most half the instance's
 * connections' worth of writes at once (at least one); its further writes wait in a queue of
 * their own, bounded in length and in time, and are answered 503 with Retry-After when it is full
 * or their wait runs out. Partners never queue behind each other here: a light partner's write
 * waits only for a free connection, never for a heavy partner's backlog.
 */
import { StoreUnavailableError } from "./store-unavailable.js";

/** Writes of one partner waiting for its share, beyond which it is answered 503 at once. */
export const MAX_WAITING_PER_PARTNER = 64;
/** How long a write waits for its partner's share before it is answered 503. */
export const MAX_SHARE_WAIT_MS = 10_000;
/** What a 503 of a partner over its share asks it to wait before retrying. */
const RETRY_AFTER_SECONDS = 1;

/** The writes one partner may run at once on an instance with `connections` (half, at least one). */
export const partnerShareOf = (connections: number): number => Math.max(1, Math.ceil(connections / 2));

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout | undefined;
}

export class PartnerShares {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  /** Shares whose waiters are never refused: work that must run in the end, only not all at once (the dispatcher's). */
  static waitingAsLongAsItTakes(perPartner: number): PartnerShares {
    return new PartnerShares(perPartner, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  }

  constructor(
    /** Units of work one partner runs at once. */
    readonly perPartner: number,
    private readonly maxWaiting = MAX_WAITING_PER_PARTNER,
    private readonly maxWaitMs = MAX_SHARE_WAIT_MS,
  ) {}

  /** Runs `work` within the partner's share, once a place of it is free. */
  async run<T>(partnerId: string, work: () => Promise<T>): Promise<T> {
    await this.enter(partnerId);
    try {
      return await work();
    } finally {
      this.leave(partnerId);
    }
  }

  /** Units of work the partner runs now (tests, inspection). */
  runningOf(partnerId: string): number {
    return this.running.get(partnerId) ?? 0;
  }

  private enter(partnerId: string): Promise<void> {
    const running = this.running.get(partnerId) ?? 0;
    if (running < this.perPartner) {
      this.running.set(partnerId, running + 1);
      return Promise.resolve();
    }
    const queue = this.waiting.get(partnerId) ?? [];
    if (queue.length >= this.maxWaiting) return Promise.reject(this.refusal(partnerId, "has too many writes waiting"));
    this.waiting.set(partnerId, queue);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        // Without a bound (the dispatcher's own share), a waiter waits for as long as it takes.
        timer: Number.isFinite(this.maxWaitMs)
          ? setTimeout(() => {
              queue.splice(queue.indexOf(waiter), 1);
              if (queue.length === 0 && this.waiting.get(partnerId) === queue) this.waiting.delete(partnerId);
              reject(this.refusal(partnerId, `waited ${this.maxWaitMs / 1000} s for its share of the database`));
            }, this.maxWaitMs)
          : undefined,
      };
      queue.push(waiter);
    });
  }

  private leave(partnerId: string): void {
    const queue = this.waiting.get(partnerId);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(partnerId);
    // The place passes to the partner's next waiting write: its count of running writes stays.
    if (next) {
      next.admit();
      return;
    }
    const running = (this.running.get(partnerId) ?? 1) - 1;
    if (running > 0) this.running.set(partnerId, running);
    else this.running.delete(partnerId);
  }

  private refusal(partnerId: string, why: string): StoreUnavailableError {
    return new StoreUnavailableError(`partner ${partnerId} ${why} (${this.perPartner} run at once)`, RETRY_AFTER_SECONDS);
  }
}
