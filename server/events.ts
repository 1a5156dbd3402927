/**
 * Events the service emits (webhook deliveries are built on this outbox). Handlers append; they
 * never deliver inside the request that caused the event.
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

export interface EventOutbox {
  emit(partnerId: string, type: EventType, payload: Record<string, unknown>): OutboxEvent;
}

/** Keeps events in order in memory; the webhook dispatcher reads from it. */
export class MemoryOutbox implements EventOutbox {
  readonly events: OutboxEvent[] = [];
  constructor(private readonly clock: Clock) {}

  emit(partnerId: string, type: EventType, payload: Record<string, unknown>): OutboxEvent {
    const event = { id: newId("evt"), partnerId, type, createdAt: this.clock.now(), payload };
    this.events.push(event);
    return event;
  }
}
