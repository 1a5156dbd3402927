/**
 * Which rate-limit buckets a request must fit: the overall windows of the key, plus the bucket of
 * its operation's class. The defaults are the service description's table, read from the spec.
 */
import { operationTable, rateLimits, type OperationId, type RateLimitClass } from "../../../generated/operations.js";

export interface RateLimitWindow {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly window: number;
}

export interface RateLimitTable {
  readonly overall: readonly RateLimitWindow[];
  readonly classes: Readonly<Record<RateLimitClass, RateLimitWindow>>;
}

/** A bucket a request counts against; `name` keeps buckets of equal windows apart. */
export interface Bucket extends RateLimitWindow {
  readonly name: string;
}

export const DEFAULT_RATE_LIMITS: RateLimitTable = rateLimits;

/** Whose counters: keys of one partner and environment share them, so rotating keys doubles nothing. */
export const rateLimitScope = (environment: string, partnerId: string) => `${environment}:${partnerId}`;

/** The same table with every limit multiplied, for load tests and CI runs that need headroom. */
export function scaleRateLimits(table: RateLimitTable, factor: number): RateLimitTable {
  const scale = ({ limit, window }: RateLimitWindow) => ({ limit: Math.max(1, Math.round(limit * factor)), window });
  return {
    overall: table.overall.map(scale),
    classes: Object.fromEntries(Object.entries(table.classes).map(([name, bucket]) => [name, scale(bucket)])) as RateLimitTable["classes"],
  };
}

/** Whether a request counts: exempt operations are reported on but never counted or refused. */
export const isCounted = (operationId: OperationId | undefined) => !operationId || !operationTable[operationId].rateLimitExempt;

/** Buckets per operation, computed once per table: the lookup on each request is a map read. */
export function bucketsByOperation(table: RateLimitTable): (operationId: OperationId | undefined) => readonly Bucket[] {
  const overall = table.overall.map((bucket) => ({ ...bucket, name: `overall_${bucket.window}s` }));
  const byOperation = new Map<OperationId, readonly Bucket[]>();
  for (const [id, info] of Object.entries(operationTable) as [OperationId, (typeof operationTable)[OperationId]][]) {
    const rateClass = info.rateLimitClass as RateLimitClass | null;
    byOperation.set(id, rateClass ? [...overall, { ...table.classes[rateClass], name: rateClass }] : overall);
  }
  return (operationId) => (operationId ? byOperation.get(operationId)! : overall);
}
