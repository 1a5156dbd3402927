/**
 * How much of a growing history a store keeps (the request log, the event history): the newest
 * `keepLatest` of each owner, none older than `maxAgeMs`. Both bounds hold, so neither a burst
 * nor a long quiet life makes a history grow past them.
 */
export interface RetentionPolicy {
  maxAgeMs: number;
  keepLatest: number;
}

/** Rows a database deletes per statement when it forgets: a long backlog is many short statements, never one long lock. */
export const RETENTION_BATCH_ROWS = 5_000;
