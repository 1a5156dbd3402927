/**
 * A captured delivery can be sent again by anyone, signature and all; `sent_at`, the time of the
 * attempt, is inside the signed body, so a delivery older than the window (or dated too far ahead:
 * a clock far off) is refused. A genuine retry is sent anew, with its own `sent_at`. It is on the
 * real clock in the sandbox too (the event's own times follow the partner's sandbox clock), so the
 * receiver's own clock is the one to compare it with.
 */
import { WebhookVerificationError } from "./verification-error.js";

/** The spec recommends 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface ReplayWindowOptions {
  /** How far `sent_at` may be from now, either way, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now (default the system clock). */
  now?: () => Date | number;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Throws WebhookVerificationError unless `sentAt` is within the tolerance of now. */
export function checkReplayWindow(sentAt: unknown, options: ReplayWindowOptions = {}): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance > 0)) throw new RangeError("toleranceSeconds must be more than 0");
  const created = typeof sentAt === "string" && RFC3339.test(sentAt) ? Date.parse(sentAt) : Number.NaN;
  if (Number.isNaN(created)) throw new WebhookVerificationError("invalid_timestamp", "sent_at is not an RFC 3339 timestamp");
  const now = Number(options.now?.() ?? Date.now());
  const ageSeconds = (now - created) / 1000;
  if (ageSeconds > tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `The delivery was sent ${Math.round(ageSeconds)} s ago, more than ${tolerance} s`,
    );
  if (-ageSeconds > tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `The delivery is dated ${Math.round(-ageSeconds)} s ahead, more than ${tolerance} s`,
    );
}
