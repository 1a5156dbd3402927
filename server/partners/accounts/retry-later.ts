/** A refusal of password work that a wait lifts: the dashboard answers 429 with `Retry-After`. */
export type RetryLaterReason = "sign_in" | "sign_up" | "busy";

export class RetryLater extends Error {
  constructor(
    /** What was refused: too many sign-in attempts (or current passwords), too many sign-ups, or a full hashing queue. */
    readonly reason: RetryLaterReason,
    /** Whole seconds, at least one. */
    readonly retryAfterSeconds: number,
  ) {
    super(`retry ${reason} after ${retryAfterSeconds} s`);
  }
}

/** Milliseconds to wait as `Retry-After` states them: whole seconds, rounded up, never zero. */
export const retryAfterSeconds = (milliseconds: number) => Math.max(1, Math.ceil(milliseconds / 1000));
