/** The database out of reach: the error a store throws then, and how both front doors find it (503 with Retry-After). */

/**
 * Thrown by a database store while the database cannot be reached, or no connection of the pool
 * came free in time: the API answers 503 with Retry-After, never a 500.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    /** Seconds after which a retry is worth it. */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/** Causes nest (a library may wrap the store's error); a cycle or a very long chain ends here. */
const MAX_CAUSES = 5;

/** The StoreUnavailableError the error is or was caused by, if any. */
export function storeUnavailableIn(error: unknown): StoreUnavailableError | null {
  let current = error;
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === "object" && current !== null; depth++) {
    if (current instanceof StoreUnavailableError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** Retry-After of an answer: whole seconds, at least one (a client must not retry at once in a loop). */
export const retryAfterHeader = (error: StoreUnavailableError) => String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
