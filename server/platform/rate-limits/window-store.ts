/**
 * Where fixed-window counters live: in this process's memory, or in the database every instance
 * shares (server/store/postgres/), with the same all-or-nothing `consume`: every counter is read,
 * and all are incremented only when every one has room.
 */

export interface WindowCounter {
  /** Counter key: the partner's key scope and the bucket. */
  readonly key: string;
  /** Start of the current window, Unix milliseconds; a counter of an earlier window counts 0. */
  readonly windowStart: number;
  readonly limit: number;
}

/** The start of the fixed window of `lengthMs` that `nowMs` falls in (Unix milliseconds). */
export const windowStartAt = (nowMs: number, lengthMs: number) => Math.floor(nowMs / lengthMs) * lengthMs;

/** Counts after the request, one per counter; `refused` lists the counters that had no room. */
export interface ConsumeResult {
  readonly counts: readonly number[];
  readonly refused: readonly number[];
}

export interface WindowStore {
  /** Counts the request in every counter, or in none when any of them is full. */
  consume(counters: readonly WindowCounter[]): ConsumeResult | Promise<ConsumeResult>;
  /** The counts as they stand, counting nothing (for requests exempt from the limits). */
  peek(counters: readonly WindowCounter[]): readonly number[] | Promise<readonly number[]>;
  /** Forgets the counters of one key scope (a partner's sandbox reset). */
  forget(scope: string): void | Promise<void>;
  /**
   * Forgets the counters whose window started before `windowStart` (Unix milliseconds): the sweep's
   * way to drop keys nobody uses any more, such as a throttle's of an address tried once.
   */
  forgetWindowsBefore(windowStart: number): void | Promise<void>;
}

/**
 * The longest window any counter has (API limits, the dashboard's throttles), with room to spare:
 * a counter whose window started earlier counts 0 whatever its key, so the sweep forgets it.
 */
export const COUNTER_LIFETIME_MS = 24 * 3_600_000;
