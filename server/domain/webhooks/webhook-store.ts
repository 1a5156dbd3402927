/** Webhook endpoints and their deliveries as stored, and the port of their store (its in-memory adapter: store/memory/memory-webhook-store.ts). */
import { defaultWebhookEvents } from "../../../generated/operations.js";
import type { components } from "../../../generated/types/full.js";
import type { OutboxEvent } from "../../platform/events.js";
import { newId } from "../../platform/ids.js";

export type SubscribableEventType = components["schemas"]["WebhookEventTypeSubscribable"];

export interface WebhookEndpointRow {
  id: string;
  partnerId: string;
  url: string;
  /** Subscribed types; null means every type. */
  events: SubscribableEventType[] | null;
  description: string | null;
  enabled: boolean;
  /** A delivery used up all its attempts since the last success. */
  failing: boolean;
  secret: string;
  /** The rotated-out secret and when it stops signing. */
  previousSecret: { secret: string; expiresAt: Date } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeliveryAttempt {
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  partnerId: string;
  event: OutboxEvent;
  status: "pending" | "succeeded" | "failed";
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** Whether an endpoint gets a delivery of an event of this type now: one that names no types takes all but the opt-in ones. */
export const endpointTakes = (endpoint: WebhookEndpointRow, type: string): boolean =>
  endpoint.enabled && ((endpoint.events ?? defaultWebhookEvents) as readonly string[]).includes(type);

/** A new delivery of the event to the endpoint, due at once. */
export const newDelivery = (endpoint: WebhookEndpointRow, event: OutboxEvent, now: Date): WebhookDeliveryRow => ({
  id: newId("whd"),
  endpointId: endpoint.id,
  partnerId: endpoint.partnerId,
  event,
  status: "pending",
  attempts: [],
  nextAttemptAt: now,
  createdAt: now,
});

/** An event waiting in the outbox, and the endpoints that took it when it was emitted. */
export interface OutboxEntry {
  event: OutboxEvent;
  endpointIds: string[];
}

/** The outbox entries of events: one per event that an endpoint takes, reading each partner's endpoints once. */
export async function outboxEntries(store: Pick<WebhookStore, "endpointsOf">, events: readonly OutboxEvent[]): Promise<OutboxEntry[]> {
  const endpointsByPartner = new Map<string, WebhookEndpointRow[]>();
  const entries: OutboxEntry[] = [];
  for (const event of events) {
    let endpoints = endpointsByPartner.get(event.partnerId);
    if (!endpoints) endpointsByPartner.set(event.partnerId, (endpoints = await store.endpointsOf(event.partnerId)));
    const endpointIds = endpoints.filter((endpoint) => endpointTakes(endpoint, event.type)).map((endpoint) => endpoint.id);
    if (endpointIds.length > 0) entries.push({ event, endpointIds });
  }
  return entries;
}

export interface WebhookStore {
  saveEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  /** Sets the endpoint's `failing` flag; an endpoint deleted meanwhile stays deleted. */
  markEndpointFailing(id: string, failing: boolean): Promise<void>;
  findEndpoint(id: string): Promise<WebhookEndpointRow | undefined>;
  /** Oldest first. */
  endpointsOf(partnerId: string): Promise<WebhookEndpointRow[]>;
  /** Deletes the endpoint with its deliveries. */
  deleteEndpoint(id: string): Promise<void>;
  saveDelivery(delivery: WebhookDeliveryRow): Promise<void>;
  /**
   * Records an attempt's outcome (status, attempts, next attempt) on the delivery, ending its claim;
   * false, and nothing written, when the delivery is gone (its endpoint deleted during the attempt).
   */
  recordAttempt(delivery: WebhookDeliveryRow): Promise<boolean>;
  /**
   * Adds events to the outbox, in the transaction of the change that caused them: one entry per
   * event that an endpoint of its partner takes now, naming those endpoints, whatever their number.
   * `fanOutOldest` turns entries into deliveries.
   */
  addToOutbox(events: readonly OutboxEvent[]): Promise<void>;
  /** Partners with events in the outbox. */
  partnersWithOutbox(): Promise<string[]>;
  /**
   * How many of the partner's deliveries are due by `now`, not yet sent, and free to be sent (none
   * of its outbox entries is older), counting up to `atMost`.
   */
  dueDeliveriesOf(partnerId: string, now: Date, atMost: number): Promise<number>;
  /**
   * In one short unit of its own: takes the partner's `limit` oldest outbox entries, writes a
   * delivery due at `now` of each event to each endpoint its entry names that still exists, in
   * event order, and removes them from the outbox. One fan-out per partner at a time across every instance (the
   * order of an endpoint's deliveries is the order of the events); answers 0 when another is under
   * way or nothing waits, else how many events it took.
   */
  fanOutOldest(partnerId: string, limit: number, now: Date): Promise<number>;
  findDelivery(id: string): Promise<WebhookDeliveryRow | undefined>;
  /** Newest first. */
  deliveriesOf(endpointId: string, page: { limit: number; offset: number }): Promise<{ deliveries: WebhookDeliveryRow[]; total: number }>;
  /**
   * Claims the endpoint's oldest pending delivery due by `now` (the partner's time; the order they
   * are attempted in) for `leaseMs` of real time, unless another delivery of the endpoint is
   * claimed: one attempt at a time per endpoint, across every instance on the store. Saving the
   * delivery ends its claim; a claim whose instance died ends with its lease, and the delivery is
   * claimed again (at least once). A database store claims with `FOR UPDATE SKIP LOCKED`.
   */
  claimDueDelivery(endpointId: string, now: Date, leaseMs: number): Promise<WebhookDeliveryRow | undefined>;
  /** Endpoints with at least one pending delivery. */
  endpointsWithPendingDeliveries(): Promise<string[]>;
  /** Forgets the endpoint's finished deliveries created before the time. */
  deleteFinishedDeliveriesBefore(endpointId: string, before: Date): Promise<number>;
  /** Every endpoint of every partner. */
  allEndpoints(): Promise<WebhookEndpointRow[]>;
}
