/** What every handler receives besides its input: the caller and the deployment's services. */
import type { Partner } from "../partners/keys/api-keys.js";
import type { Clock } from "../platform/clock.js";
import type { EventStore } from "../domain/events/event-store.js";
import type { EventOutbox, MemoryOutbox } from "../platform/events.js";
import type { Persistence } from "../store/persistence.js";
import type { Store } from "../store/store.js";
import type { Deployment } from "../platform/deployment.js";
import type { PartnerClocks } from "../domain/sandbox/partner-clocks.js";
import type { WindowStore } from "../platform/rate-limits/window-store.js";
import type { WebhookDispatcher } from "../domain/webhooks/dispatcher.js";
import type { WebhookStore } from "../domain/webhooks/webhook-store.js";

export interface Services {
  /** Where the deployment keeps what it shares; `store` and `webhooks.store` are its, or a transaction's (server/application/transactions.ts). */
  persistence: Persistence;
  store: Store;
  /** The event history: the persistence's, or a transaction's (server/application/transactions.ts). */
  events: EventStore;
  /** The time of whoever is served: a partner's own clock in the sandbox. */
  clock: Clock;
  outbox: EventOutbox;
  /** The events this process emitted, in order. */
  eventLog: MemoryOutbox;
  clocks: PartnerClocks;
  rateLimitStore: WindowStore;
  webhooks: { store: WebhookStore; dispatcher: WebhookDispatcher };
  deployment: Deployment;
  /**
   * Runs `task` once what the caller wrote is committed: inside a transaction, after it commits
   * (never if it does not); outside one, at once. For work that must see the writes, such as
   * sending deliveries an endpoint's enabling made due.
   */
  afterCommit(task: () => void): void;
}

export interface RequestContext {
  /** Null only for operations without authentication (GET /health). */
  partner: Partner | null;
  services: Services;
}

/** The services as one partner sees them: its clock, and events stamped with it. */
export function servicesOf(services: Services, partnerId: string): Services {
  const clock = services.clocks.clockFor(partnerId);
  // Production partners share the deployment's clock: the services as they are serve them.
  return clock === services.clock ? services : servicesAt(services, clock);
}

/** The services with time fixed or replaced: for carrying out what fell due at an earlier time. */
export function servicesAt(services: Services, clock: Clock): Services {
  return { ...services, clock, outbox: services.outbox.stampedBy(clock) };
}

/** The authenticated partner; the auth middleware guarantees it for authenticated operations. */
export function partnerOf(context: RequestContext): Partner {
  if (!context.partner) throw new Error("authenticated operation reached without a partner");
  return context.partner;
}
