/**
 * Fixed windows aligned to the epoch, per key scope and bucket: a request must fit every bucket
 * that applies, and a refused request counts in none. Time comes from the caller: the real clock,
 * never a partner's sandbox clock, whose advances would free a window each. Cost per request: one
 * map read and one write per bucket.
 */
import type { OperationId } from "../../../generated/operations.js";
import { bucketsByOperation, isCounted, type Bucket, type RateLimitTable } from "./policy.js";
import { type ConsumeResult, type WindowCounter, type WindowStore, windowStartAt } from "./window-store.js";

export interface BucketState {
  readonly bucket: Bucket;
  readonly remaining: number;
  /** Unix seconds when the bucket's window ends. */
  readonly reset: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Every bucket that applies, after this request. */
  readonly buckets: readonly BucketState[];
  /** The same buckets' definitions: one array per operation, the same on every request. */
  readonly applicable: readonly Bucket[];
  /** The bucket the headers report: the one that refused, or else the closest to exhaustion. */
  readonly reported: BucketState;
  /** Seconds until the request could fit; 0 when allowed. */
  readonly retryAfter: number;
}

/** Fewest remaining first; on a tie, the one that resets last (the longer wait). */
const closerToExhaustion = (a: BucketState, b: BucketState) => a.remaining - b.remaining || b.reset - a.reset;

export class RateLimiter {
  private readonly bucketsOf: (operationId: OperationId | undefined) => readonly Bucket[];

  constructor(
    table: RateLimitTable,
    /** Read at each use: tests swap the persistence the counters live in. */
    private readonly store: () => WindowStore,
  ) {
    this.bucketsOf = bucketsByOperation(table);
  }

  /**
   * `scope` names whose limits these are: the partner and environment of the key. `count`, when
   * given, counts in the store's stead (with more in the same call: a request's admission); it is
   * called for every request, with no counter for one exempt from the limits.
   */
  async consume(
    scope: string,
    operationId: OperationId | undefined,
    nowMs: number,
    count?: (counters: readonly WindowCounter[]) => Promise<ConsumeResult>,
  ): Promise<RateLimitDecision> {
    const buckets = this.bucketsOf(operationId);
    const windows = buckets.map((bucket) => {
      const length = bucket.window * 1000;
      return { bucket, windowStart: windowStartAt(nowMs, length), length };
    });
    const counters = windows.map(({ bucket, windowStart }) => ({ key: `${scope}:${bucket.name}`, windowStart, limit: bucket.limit }));
    const counted = isCounted(operationId);
    if (count && !counted) await count([]);
    const { counts, refused } = counted
      ? await (count ?? ((c) => this.store().consume(c)))(counters)
      : { counts: await this.store().peek(counters), refused: [] };
    const states = windows.map(({ bucket, windowStart, length }, i) => ({
      bucket,
      remaining: Math.max(0, bucket.limit - counts[i]!),
      reset: (windowStart + length) / 1000,
    }));
    if (refused.length > 0) {
      // The request fits again only when every full bucket has reset: report the last to reset.
      const blocking = refused.map((i) => states[i]!).sort((a, b) => b.reset - a.reset)[0]!;
      return {
        allowed: false,
        buckets: states,
        applicable: buckets,
        reported: blocking,
        retryAfter: Math.max(1, Math.ceil(blocking.reset - nowMs / 1000)),
      };
    }
    return { allowed: true, buckets: states, applicable: buckets, reported: [...states].sort(closerToExhaustion)[0]!, retryAfter: 0 };
  }
}
