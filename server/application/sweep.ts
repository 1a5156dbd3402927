/**
 * Applies what time brings (transfer steps, domain expiry and auto-renewal, the end of the webhook
 * delivery log's retention, the removal of ended sessions, of idempotency keys past their 24 hours and of events beyond what the event history keeps;
 * the dashboard's ended sessions, invitations and sign-up links, rolled keys past their grace period
 * and the request log beyond what it keeps) while the server runs, for time that passes on its own; sandbox partners who advance their clocks get the state changes at once.
 */
import { COUNTER_LIFETIME_MS } from "../platform/rate-limits/window-store.js";
import type { Services } from "./context.js";
import { applyAllDueChanges } from "./due-changes.js";
import { EVENT_RETENTION } from "../domain/events/event-store.js";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../platform/idempotency/idempotent-requests.js";
import { REQUEST_LOG_RETENTION } from "../partners/request-history/request-history-store.js";
import { every } from "../platform/every.js";
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
      const now = services.clock.now().getTime();
      await services.persistence.idempotency.deleteCreatedBefore(new Date(now - IDEMPOTENCY_KEY_LIFETIME_MS));
      await services.persistence.events.prune(services.clock.now(), EVENT_RETENTION);
      const { persistence } = services;
      await persistence.accounts.deleteExpired(services.clock.now());
      await persistence.apiKeys.deleteExpiredKeys(services.clock.now());
      await persistence.requestHistory.prune(services.clock.now(), REQUEST_LOG_RETENTION);
      await persistence.rateLimits.forgetWindowsBefore(now - COUNTER_LIFETIME_MS);
    },
    onError,
  );
}
