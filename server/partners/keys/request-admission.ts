/**
 * Where a request is admitted on a deployment whose instances keep keys and clocks in memory
 * (server/store/postgres/change-cache.ts): one call counts it against the rate limits, confirms
 * that its stored key is still accepted, and reads its partner's sandbox clock. A cache hears of a
 * revocation or an advance made elsewhere when the notification arrives; the admission makes the
 * request that comes before it right anyway, at no cost in round trips (the count is made for
 * every request).
 */
import type { ConsumeResult, WindowCounter } from "../../platform/rate-limits/window-store.js";

export interface AdmittedRequest {
  /** The stored key's id; null for keys of the configuration and the partners file. */
  keyId: string | null;
  /** The partner whose sandbox clock to read; null in production, where clocks are not moved. */
  clockOf: string | null;
  now: Date;
}

export interface Admission extends ConsumeResult {
  /** False: the stored key is revoked or expired; nothing was counted. */
  readonly keyAccepted: boolean;
  /** Milliseconds the partner's clock is ahead of the deployment's (0 when none was asked). */
  readonly clockOffsetMs: number;
}

export interface RequestAdmission {
  /** Counts the request in every counter or, when any is full, in none (WindowStore.consume), if its key is accepted. */
  admit(counters: readonly WindowCounter[], request: AdmittedRequest): Promise<Admission>;
}
