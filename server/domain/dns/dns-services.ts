/**
 * What the DNS services use of a deployment's services: the record store, the time and the events'
 * outbox. The application's Services (application/context.ts) has these and more; the DNS rules
 * name only what they need, so they depend on no store and on no assembly of services.
 */
import type { Clock } from "../../platform/clock.js";
import type { EventOutbox } from "../../platform/events.js";
import type { RecordStore } from "./record-store.js";

export interface DnsServices {
  store: RecordStore;
  clock: Clock;
  outbox: EventOutbox;
}
