/**
 * Removes login sessions (and the browser sessions opened from them) once they end, 24 hours after
 * issue by their partner's clock: lookups already refuse them, this frees what they hold. Run by
 * the periodic sweep (server/application/sweep.ts), so an ended session stays in memory at most one
 * sweep interval longer.
 */
import type { Services } from "./context.js";

/** Removes every partner's ended sessions; returns how many login sessions went. */
export async function removeEndedSessions(services: Services): Promise<number> {
  let count = 0;
  for (const partnerId of await services.store.partnersWithSessions()) {
    await services.clocks.refresh(partnerId);
    count += await services.store.deleteEndedSessions(partnerId, services.clocks.clockFor(partnerId).now());
  }
  return count;
}
