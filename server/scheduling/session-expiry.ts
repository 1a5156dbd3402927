/**
 * Removes login sessions (and the browser sessions opened from them) once they end, 24 hours after
 * issue by their partner's clock: lookups already refuse them, this frees what they hold. Run by
 * the periodic sweep (server/scheduling/sweep.ts), so an ended session stays in memory at most one
 * sweep interval longer.
 */
import type { Services } from "../context.js";

/** Removes every partner's ended sessions; returns how many login sessions went. */
export function removeEndedSessions(services: Services): number {
  return services.store
    .partnersWithSessions()
    .reduce((count, partnerId) => count + services.store.deleteEndedSessions(partnerId, services.clocks.clockFor(partnerId).now()), 0);
}
