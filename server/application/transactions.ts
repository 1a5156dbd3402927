/**
 * Units of work: every request that writes runs as one transaction of the persistence, so the
 * rules it checks hold against every other writer, on this instance or another on the same
 * database. Its events enter the webhook outbox inside the same transaction (an entry exists
 * exactly when the change that caused it was committed; the dispatcher fans entries out into
 * deliveries afterwards) and are kept in the event history the events API reads, and reach this
 * process's event log once it has committed.
 */
import type { Services } from "./context.js";
import { reconsiderTouchedDomains } from "./connection-rechecks.js";
import { collectingOutbox, type OutboxEvent } from "../platform/events.js";
import { PartnerShares, partnerShareOf } from "../platform/partner-shares.js";
import type { DataStores, Persistence, UnitOfWork } from "../store/persistence.js";

export type { UnitOfWork };

/** Each persistence's partner shares: tests point one app at several persistences in turn. */
const sharesByPersistence = new WeakMap<Persistence, PartnerShares>();

/** The partner shares of a persistence, made on first use. */
export function partnerSharesOf(persistence: Persistence): PartnerShares {
  let shares = sharesByPersistence.get(persistence);
  if (!shares) sharesByPersistence.set(persistence, (shares = new PartnerShares(partnerShareOf(persistence.connections))));
  return shares;
}

export async function inTransaction<T>(
  services: Services,
  /** `stores` are the transaction's, for what is written with the work besides the service's data (an idempotent request's answer). */
  work: (services: Services, stores: DataStores) => Promise<T>,
  kind: UnitOfWork = "serializable",
  /**
   * The partner the work is done for: it runs within the partner's share of the persistence's
   * connections (server/platform/partner-shares.ts), so one partner's writes cannot hold them all.
   */
  partnerId?: string,
): Promise<T> {
  if (partnerId !== undefined) return partnerSharesOf(services.persistence).run(partnerId, () => inTransaction(services, work, kind));
  let events: OutboxEvent[] = [];
  let committed: Array<() => void> = [];
  const result = await services.persistence.transaction(async (stores) => {
    const { store, webhooks } = stores;
    // A transaction run again starts with none of the events and tasks of the attempt before it.
    events = [];
    committed = [];
    const tasks = committed;
    const outbox = collectingOutbox(events, services.clock);
    const servicesOfUnit: Services = {
      ...services,
      store,
      events: stores.events,
      webhooks: { ...services.webhooks, store: webhooks },
      outbox,
      afterCommit: (task) => tasks.push(task),
    };
    const value = await work(servicesOfUnit, stores);
    // Whatever wrote a domain's records or delegation, the partner hears when its connection answer turns.
    await reconsiderTouchedDomains(servicesOfUnit, events);
    // One outbox entry per event: the dispatcher writes the deliveries later, in short batches of
    // their own, so a change set's thousand events to sixteen endpoints do not hold this connection.
    // Sent together: on PostgreSQL both go down the unit's connection before either answer comes back.
    await Promise.all([webhooks.addToOutbox(events), stores.events.saveEvents(events)]);
    return value;
  }, kind);
  for (const event of events) services.eventLog.record(event);
  for (const task of committed) task();
  return result;
}
