/**
 * Events the service emits (webhook deliveries are built on this log). Handlers emit; they never
 * deliver inside the request that caused the event.
 */
import type { components } from "../../generated/types/full.js";
import type { Clock } from "./clock.js";
import { newId } from "./ids.js";

export type EventType = components["schemas"]["EventType"];

export interface OutboxEvent {
  id: string;
  partnerId: string;
  type: EventType;
  createdAt: Date;
  payload: Record<string, unknown>;
}

/** What handlers emit through: events are stamped with the clock of whoever emits them. */
export interface EventOutbox {
  emit(partnerId: string, type: EventType, payload: Record<string, unknown>): OutboxEvent;
  /** The same outbox, stamping events with another clock (a change carried out at the time it fell due). */
  stampedBy(clock: Clock): EventOutbox;
}

/** An outbox that keeps what is emitted in `events` (a transaction's, until it commits). */
export function collectingOutbox(events: OutboxEvent[], clock: Clock): EventOutbox {
  return {
    emit: (partnerId, type, payload) => {
      const event = newEvent(partnerId, type, payload, clock.now());
      events.push(event);
      return event;
    },
    stampedBy: (other) => collectingOutbox(events, other),
  };
}

/**
 * The outbox of services outside a transaction: events are emitted only by writes, and every
 * write runs in a transaction (server/application/transactions.ts), whose outbox turns them into deliveries.
 */
export const outboxOutsideTransactions: EventOutbox = {
  emit: (_partnerId, type) => {
    throw new Error(`${type} emitted outside a transaction: its webhook deliveries would not be written with it`);
  },
  stampedBy: () => outboxOutsideTransactions,
};

export function newEvent(partnerId: string, type: EventType, payload: Record<string, unknown>, createdAt: Date): OutboxEvent {
  return { id: newId("evt"), partnerId, type, createdAt, payload };
}

/** How many recent events the log keeps; deliveries hold their own copy of the events they carry. */
export const EVENT_LOG_SIZE = 10_000;

/**
 * The most recent events this process committed, in order (for tests and inspection), and the
 * hook prompt webhook delivery listens on. Bounded, so a long-running server does not keep every event it ever emitted.
 */
export class MemoryOutbox {
  readonly events: OutboxEvent[] = [];
  private readonly listeners: Array<(event: OutboxEvent) => void> = [];

  /** Adds an event made elsewhere (a transaction's, once it committed) and tells the listeners. */
  record(event: OutboxEvent): void {
    this.events.push(event);
    // Trimmed in halves, so the cost of trimming stays constant per event.
    if (this.events.length >= 2 * EVENT_LOG_SIZE) this.events.splice(0, this.events.length - EVENT_LOG_SIZE);
    this.listeners.forEach((listener) => listener(event));
  }

  /** Calls the listener with every event recorded from now on. */
  subscribe(listener: (event: OutboxEvent) => void): void {
    this.listeners.push(listener);
  }
}
