/**
 * Idempotency keys (the spec's "Idempotent requests"): which request took a key, and the answer it
 * gave. A key is taken with a lease, so a key whose instance died mid-request can be taken again;
 * the answer is stored with the request's writes, in its transaction.
 */
import type { Environment } from "../../../generated/deployment.js";

/** What one key is scoped to: the same value under another partner, environment, method or path is another key. */
export interface IdempotencyScope {
  partnerId: string;
  environment: Environment;
  method: string;
  /** The operation's path as the document writes it, parameters filled in: never the raw spelling of the request. */
  path: string;
  key: string;
}

/** The answer a replay gives: status, body (null for none) and the headers that belong to it (an ETag). */
export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type KeyClaim =
  /** The key is this request's: run it, then store its answer under `token`. */
  | { state: "claimed"; token: string }
  /** Another request holds the key and has not answered yet. */
  | { state: "running"; fingerprint: string }
  | { state: "completed"; fingerprint: string; answer: StoredAnswer };

export interface IdempotencyStore {
  /**
   * Takes the key for a request whose body has `fingerprint`, unless a request holds it (its lease,
   * `leaseMs` of real time, still runs) or answered since `keptSince`. Atomic across every instance
   * on the store: of concurrent claims of one free key, exactly one is answered "claimed".
   */
  claim(scope: IdempotencyScope, fingerprint: string, now: Date, keptSince: Date, leaseMs: number): Promise<KeyClaim>;
  /** Stores the answer of the claim `token`; false when the key is no longer that claim's (its lease ran out and another took it). */
  complete(scope: IdempotencyScope, token: string, answer: StoredAnswer): Promise<boolean>;
  /** Frees the key of the claim `token`, so a retry runs (a request that failed without changing anything). */
  release(scope: IdempotencyScope, token: string): Promise<void>;
  /** Forgets the keys first used before `before`; returns how many. */
  deleteCreatedBefore(before: Date): Promise<number>;
}
