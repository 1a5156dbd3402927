/**
 * Units of work: every request that writes runs as one transaction of the persistence, so the
 * rules it checks hold against every other writer, on this instance or another on the same
 * database. Its events become webhook deliveries inside the same transaction (an outbox: a
 * delivery exists exactly when the change that caused it was committed) and are kept in the
 * event history the events API reads, and reach this process's event log once it has committed.
 */
import type { Services } from "./context.js";
import { collectingOutbox, type OutboxEvent } from "./events.js";
import type { DataStores, UnitOfWork } from "./store/persistence.js";

export async function inTransaction<T>(
  services: Services,
  /** `stores` are the transaction's, for what is written with the work besides the service's data (an idempotent request's answer). */
  work: (services: Services, stores: DataStores) => Promise<T>,
  kind: UnitOfWork = "serializable",
): Promise<T> {
  let events: OutboxEvent[] = [];
  let committed: Array<() => void> = [];
  const result = await services.persistence.transaction(async (stores) => {
    const { store, webhooks } = stores;
    // A transaction run again starts with none of the events and tasks of the attempt before it.
    events = [];
    committed = [];
    const tasks = committed;
    const outbox = collectingOutbox(events, services.clock);
    const value = await work(
      {
        ...services,
        store,
        events: stores.events,
        webhooks: { ...services.webhooks, store: webhooks },
        outbox,
        afterCommit: (task) => tasks.push(task),
      },
      stores,
    );
    for (const event of events) await services.webhooks.dispatcher.fanOut(event, webhooks);
    await stores.events.saveEvents(events);
    return value;
  }, kind);
  for (const event of events) services.eventLog.record(event);
  for (const task of committed) task();
  return result;
}
