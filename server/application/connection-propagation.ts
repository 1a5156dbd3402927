/**
 * The connection answers time turns: a propagation of custom nameservers ending (simulated in the
 * sandbox), checked again at the time it ends by the sweep and a sandbox clock advance.
 */
import { reconsiderConnection } from "../domain/connection/connection-service.js";
import { servicesAt, type Services } from "./context.js";
import { inTransaction } from "./transactions.js";

/** Checks again the partner's domains whose answer may have turned by `until`, each at the time it may have. */
export async function recheckDueConnections(services: Services, partnerId: string, until: Date): Promise<void> {
  for (const due of await services.store.connections.rechecksDue(partnerId, until)) {
    const at = due.recheckAt!;
    await inTransaction(servicesAt(services, { now: () => new Date(at) }), async (servicesThen) => {
      const state = await servicesThen.store.connections.stateOf(due.domainId);
      if (state?.recheckAt?.getTime() !== at.getTime()) return;
      const domain = await servicesThen.store.findDomain(due.domainId);
      if (domain) await reconsiderConnection(servicesThen, domain);
      else await servicesThen.store.connections.saveState({ ...state, recheckAt: null });
    });
  }
}
