/**
 * Applies what time brings (transfer steps, domain expiry and auto-renewal, the end of the webhook
 * delivery log's retention, the removal of ended sessions and of idempotency keys past their 24 hours) while the server runs, for time that
 * passes on its own; sandbox partners who advance their clocks get the state changes at once.
 */
import type { Services } from "../context.js";
import { applyAllDueChanges } from "./due-changes.js";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../idempotency/idempotent-requests.js";
import { every } from "./every.js";
import { removeEndedSessions } from "./session-expiry.js";

export const SWEEP_INTERVAL_MS = 60_000;

/** Starts the periodic sweep; returns the function that stops it. */
export function startDueChangeSweep(services: Services, onError: (error: unknown) => void, intervalMs = SWEEP_INTERVAL_MS): () => void {
  return every(
    intervalMs,
    async () => {
      await applyAllDueChanges(services);
      await services.webhooks.dispatcher.prune();
      await removeEndedSessions(services);
      await services.persistence.idempotency.deleteCreatedBefore(new Date(services.clock.now().getTime() - IDEMPOTENCY_KEY_LIFETIME_MS));
    },
    onError,
  );
}
