/**
 * How a POST with an Idempotency-Key runs (the spec's "Idempotent requests"): the key is taken
 * before the request runs, and its answer is stored with the request's writes, so a retry gets
 * that answer instead of running again.
 */
import { hash } from "node:crypto";
import { canonicalJson } from "../canonical-json.js";
import { apiErrors, type ApiError } from "../errors.js";
import type { IdempotencyScope, IdempotencyStore, StoredAnswer } from "./idempotency-store.js";

/** How long a key is kept from its first use. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request holds its key while it runs (real time): far longer than any request takes,
 * and the longest a key stays taken after its instance died mid-request.
 */
export const KEY_LEASE_MS = 60_000;
/** What a 409 for a key still in use asks the caller to wait. */
export const KEY_IN_USE_RETRY_AFTER_SECONDS = 1;

/** What tells one request from another under the same key: its query and its body. */
export function requestFingerprint(query: unknown, body: unknown): string {
  return hash("sha256", canonicalJson({ query: query ?? {}, body: body ?? null }), "base64url");
}

/** The operation's path as the document writes it, with the request's parameters in it. */
export function canonicalPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/**
 * Statuses whose answer a retry gets again: those of a request that ran. Refusals before it ran
 * (400, 401, 413, 415, 429) and failures that changed nothing (5xx) leave the key free.
 */
export function answerIsKept(status: number): boolean {
  return status < 500 && ![400, 401, 413, 415, 429].includes(status);
}

export interface IdempotentRequest {
  scope: IdempotencyScope;
  fingerprint: string;
}

export type KeyDecision =
  /** Run the request; store its answer under `token`. */
  | { run: true; token: string }
  /** Answer this, stored by the first request with the key. */
  | { run: false; answer: StoredAnswer };

/**
 * Takes the key for the request, or answers what holds it: the stored answer (same body), 422
 * (another body) or 409 (its first request still runs).
 */
export async function takeKey(store: IdempotencyStore, request: IdempotentRequest, now: Date): Promise<KeyDecision> {
  const keptSince = new Date(now.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS);
  const claim = await store.claim(request.scope, request.fingerprint, now, keptSince, KEY_LEASE_MS);
  if (claim.state === "claimed") return { run: true, token: claim.token };
  if (claim.fingerprint !== request.fingerprint) throw apiErrors.idempotencyKeyReused();
  if (claim.state === "running") throw apiErrors.idempotencyKeyInUse();
  return { run: false, answer: claim.answer };
}

/** What a handler answered, as a replay needs it. */
export interface AnswerToKeep {
  status: number;
  body?: unknown;
  /** The entity tag of the resource answered, where the operation documents an ETag. */
  etag?: string;
}

/**
 * What a replay answers: the body as JSON carries it (a 204 has none), with its ETag, without the
 * fields shown once (`x-shown-once`, a webhook endpoint's signing secret): a secret kept for a replay
 * would be shown again to whoever repeats the key for a day, and would lie in the store's table.
 * Such an answer is never replayed as it is (refusedReplay).
 */
export function replayableAnswer(answer: AnswerToKeep, shownOnceFields: readonly string[]): StoredAnswer {
  let body = answer.body === undefined ? null : JSON.parse(JSON.stringify(answer.body));
  if (shownOnceFields.length > 0 && typeof body === "object" && body !== null && !Array.isArray(body)) {
    body = Object.fromEntries(Object.entries(body).filter(([name]) => !shownOnceFields.includes(name)));
  }
  return { status: answer.status, body, headers: answer.etag === undefined ? {} : { etag: answer.etag } };
}

/** Whether an error is the 409 of a key in use, which carries Retry-After and is never stored. */
export const isKeyInUse = (error: ApiError) => error.details?.code === "idempotency_key_in_use";

/**
 * A replay that cannot be answered as the first request was: a success whose answer held fields
 * shown once. Answering it without them would break the operation's schema (they are required), so
 * it is refused, naming the resource: what the key did stays done, and nothing runs again.
 */
export function refusedReplay(answer: StoredAnswer, shownOnceFields: readonly string[]): ApiError | null {
  if (shownOnceFields.length === 0 || answer.status >= 300) return null;
  const id = (answer.body as { id?: unknown } | null)?.id;
  return apiErrors.secretShownOnce(typeof id === "string" ? id : "");
}
