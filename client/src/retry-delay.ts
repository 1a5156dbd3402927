/** How long to wait before a retry: the server's hint when it gives one, else exponential backoff. Pure functions. */

/**
 * `Retry-After` (RFC 9110 10.2.3): whole seconds, or an HTTP-date (IMF-fixdate) read against `nowMs`.
 * Undefined when absent or unreadable.
 */
export function retryAfterHeaderMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // IMF-fixdate only, the form senders must use: Date.parse alone would take "-5" for a year.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** `details.retry_after` of a 429 body (seconds), for when a proxy dropped the header. */
export function retryAfterBodyMs(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const details = (body as { details?: unknown }).details;
  if (typeof details !== "object" || details === null) return undefined;
  const seconds = (details as { retry_after?: unknown }).retry_after;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

export interface DelayPolicy {
  /** Backoff base when the server gives no hint: base, 2 x base, 4 x base... */
  readonly baseDelayMs: number;
  /** Upper bound of the random extra added to a server's hint. */
  readonly jitterMs: number;
  /** In [0, 1). */
  readonly random: () => number;
}

/**
 * With a hint: the hint plus up to `jitterMs`, never earlier (the bucket is full until then; the
 * API's windows are aligned to Unix time, so without jitter every waiting process would come back
 * in the same instant). Without one: "equal jitter" backoff, between half and all of
 * base x 2^attempt, so retries spread out and never come at once.
 */
export function retryDelayMs(hintMs: number | undefined, attempt: number, policy: DelayPolicy): number {
  if (hintMs !== undefined) return Math.ceil(hintMs + policy.random() * policy.jitterMs);
  const ceiling = policy.baseDelayMs * 2 ** attempt;
  return Math.ceil(ceiling / 2 + (policy.random() * ceiling) / 2);
}
