/**
 * Events the service emits (webhook deliveries are built on this log). Handlers emit; they never
 * deliver inside the request that caused the event.
 */
import type { components } from "../generated/types/full.js";
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
}

/** How many recent events the log keeps; deliveries hold their own copy of the events they carry. */
export const EVENT_LOG_SIZE = 10_000;

/**
 * The most recent events in order (for tests and inspection), and the hook the webhook fan-out
 * listens on. Bounded, so a long-running server does not keep every event it ever emitted.
 */
export class MemoryOutbox {
  readonly events: OutboxEvent[] = [];
  private readonly listeners: Array<(event: OutboxEvent) => void> = [];

  append(partnerId: string, type: EventType, payload: Record<string, unknown>, createdAt: Date): OutboxEvent {
    const event = { id: newId("evt"), partnerId, type, createdAt, payload };
    this.events.push(event);
    // Trimmed in halves, so the cost of trimming stays constant per event.
    if (this.events.length >= 2 * EVENT_LOG_SIZE) this.events.splice(0, this.events.length - EVENT_LOG_SIZE);
    this.listeners.forEach((listener) => listener(event));
    return event;
  }

  /** Calls the listener with every event appended from now on (the webhook fan-out). */
  subscribe(listener: (event: OutboxEvent) => void): void {
    this.listeners.push(listener);
  }

  /** An outbox that stamps events with the given clock (a partner's sandbox time). */
  stampedBy(clock: Clock): EventOutbox {
    return { emit: (partnerId, type, payload) => this.append(partnerId, type, payload, clock.now()) };
  }
}
