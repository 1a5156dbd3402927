/** When a failed delivery is tried again: the schedule documented in the spec's x-webhooks. */

/** Seconds after each failed attempt, 1st to 9th; the 10th failure (one more than there are delays) is final. */
export const RETRY_DELAYS_S = [60, 300, 900, 1800, 3600, 7200, 14400, 21600, 36000] as const;
/** Each delay grows by up to this share, so receivers that failed together are not retried together. */
export const JITTER = 0.1;

/** The time of the next attempt after `attempts` failed ones, or null when none is left. */
export function nextAttemptAt(failedAttempts: number, now: Date, random: () => number): Date | null {
  const delay = RETRY_DELAYS_S[failedAttempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * 1000 * (1 + JITTER * random())));
}
