/**
 * Opt-in retries, as a wrapper around fetch: below openapi-fetch's middleware, so a caller sees
 * one call and one final response.
 *
 * GET and HEAD are retried: they are safe (RFC 9110 9.2.1), repeating one changes nothing. POST
 * is retried with an `Idempotency-Key` (the caller's, else one made for the call, the same in
 * every attempt): the API runs a key's first request only, and answers its retries with what it
 * answered (the spec's "Idempotent requests"), so a renewal retried after a 503 is charged once.
 * PUT and DELETE are idempotent in HTTP's sense but not free of effects here (a repeated PUT emits
 * another `domain.updated` webhook; a repeated DELETE answers 404 for a delete that worked), so
 * they are not retried.
 *
 * Only 429 (the request was not executed, per the spec), 503 (unavailable, from a proxy or an
 * overloaded instance) and, for a POST, 409 `idempotency_key_in_use` (its first attempt still
 * runs: the retry gets its answer) are retried: any other status will not change by asking again.
 */
import { retryAfterBodyMs, retryAfterHeaderMs, retryDelayMs } from "./retry-delay.js";

export type FetchFunction = (request: Request) => Promise<Response>;

/** Time as the retries see it: injectable so tests advance a fake clock instead of sleeping. */
export interface RetryClock {
  /** Milliseconds since the epoch (reads HTTP-date `Retry-After` values). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RetryEvent {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
}

export interface RetryOptions {
  /** Retries after the first attempt (default 2: at most 3 requests). */
  maxRetries?: number;
  /**
   * The longest wait accepted (default 60 000 ms, a per-minute window). An answer asking for
   * longer (an hourly bucket) is returned to the caller at once rather than holding the call for
   * minutes; backoff without a hint is capped at it.
   */
  maxDelayMs?: number;
  /** Backoff base when the answer has no `Retry-After` (default 500 ms). */
  baseDelayMs?: number;
  /** Up to this much is added at random to a server-given wait (default 1000 ms). */
  jitterMs?: number;
  clock?: RetryClock;
  /** In [0, 1) (default Math.random). */
  random?: () => number;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export const RETRIED_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST"]);
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The request with an Idempotency-Key: its own if it has one, else a new random one. */
export function withIdempotencyKey(request: Request): Request {
  if (request.headers.has("Idempotency-Key")) return request;
  const headers = new Headers(request.headers);
  headers.set("Idempotency-Key", crypto.randomUUID());
  return new Request(request, { headers });
}

/** A 409 saying the first attempt with the same Idempotency-Key still runs. */
async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { details?: { code?: unknown } } | undefined;
  return body?.details?.code === "idempotency_key_in_use";
}

export const systemClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** The server's wait, from `Retry-After`, else from a 429 body's `details.retry_after`. */
async function serverHintMs(response: Response, nowMs: number): Promise<number | undefined> {
  const fromHeader = retryAfterHeaderMs(response.headers.get("Retry-After"), nowMs);
  if (fromHeader !== undefined || response.status !== 429) return fromHeader;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return retryAfterBodyMs(body);
}

export function retryingFetch(fetch: FetchFunction, options: RetryOptions = {}): FetchFunction {
  const maxRetries = options.maxRetries ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const clock = options.clock ?? systemClock;
  const policy = { baseDelayMs: options.baseDelayMs ?? 500, jitterMs: options.jitterMs ?? 1000, random: options.random ?? Math.random };
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError("retry.maxRetries must be a whole number of at least 0");

  return async (sent) => {
    if (!RETRIED_METHODS.has(sent.method)) return fetch(sent);
    const request = sent.method === "POST" ? withIdempotencyKey(sent) : sent;
    for (let retry = 1; ; retry++) {
      // A fresh copy each time: a Request can be sent only once.
      const response = await fetch(request.clone());
      const retried = RETRIED_STATUSES.has(response.status) || (request.method === "POST" && (await isKeyInUse(response)));
      if (!retried || retry > maxRetries) return response;
      const hintMs = await serverHintMs(response, clock.now());
      // Judged on the server's own ask (the jitter is ours): a per-minute bucket's 60 s is waited out by default.
      if (hintMs !== undefined && hintMs > maxDelayMs) return response;
      const delayMs =
        hintMs !== undefined ? retryDelayMs(hintMs, retry - 1, policy) : Math.min(retryDelayMs(undefined, retry - 1, policy), maxDelayMs);
      // Free the connection of an answer nobody will read.
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({ method: request.method, url: request.url, status: response.status, retry, delayMs });
      await clock.sleep(delayMs, request.signal);
    }
  };
}
