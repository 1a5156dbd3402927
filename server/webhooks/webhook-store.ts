/** Webhook endpoints and their deliveries: the interface and its in-memory implementation. */
import type { components } from "../../generated/types/full.js";
import type { OutboxEvent } from "../events.js";

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

export interface WebhookStore {
  saveEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  findEndpoint(id: string): Promise<WebhookEndpointRow | undefined>;
  /** Oldest first. */
  endpointsOf(partnerId: string): Promise<WebhookEndpointRow[]>;
  /** Deletes the endpoint with its deliveries. */
  deleteEndpoint(id: string): Promise<void>;
  saveDelivery(delivery: WebhookDeliveryRow): Promise<void>;
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

const copyDelivery = (row: WebhookDeliveryRow): WebhookDeliveryRow => ({
  ...row,
  attempts: row.attempts.map((attempt) => ({ ...attempt })),
});

export class MemoryWebhookStore implements WebhookStore {
  private readonly endpoints = new Map<string, WebhookEndpointRow>();
  /** Endpoint ids per partner, in creation order: every emitted event looks its partner's up. */
  private readonly endpointIdsByPartner = new Map<string, Set<string>>();
  private readonly deliveries = new Map<string, WebhookDeliveryRow>();
  /** Delivery ids per endpoint, in creation order. */
  private readonly deliveryIdsByEndpoint = new Map<string, string[]>();
  private readonly pending = new Map<string, Set<string>>();
  /** The claimed delivery of each endpoint and until when (real time); saving the delivery ends it. */
  private readonly claims = new Map<string, { deliveryId: string; until: number }>();

  async saveEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
    this.endpoints.set(endpoint.id, { ...endpoint, events: endpoint.events && [...endpoint.events] });
    let ids = this.endpointIdsByPartner.get(endpoint.partnerId);
    if (!ids) this.endpointIdsByPartner.set(endpoint.partnerId, (ids = new Set()));
    ids.add(endpoint.id);
  }

  async findEndpoint(id: string): Promise<WebhookEndpointRow | undefined> {
    return this.endpointCopy(id);
  }

  private endpointCopy(id: string): WebhookEndpointRow | undefined {
    const row = this.endpoints.get(id);
    return row && { ...row, events: row.events && [...row.events] };
  }

  async endpointsOf(partnerId: string): Promise<WebhookEndpointRow[]> {
    return [...(this.endpointIdsByPartner.get(partnerId) ?? [])].map((id) => this.endpointCopy(id)!);
  }

  async deleteEndpoint(id: string): Promise<void> {
    for (const deliveryId of this.deliveryIdsByEndpoint.get(id) ?? []) this.deliveries.delete(deliveryId);
    this.deliveryIdsByEndpoint.delete(id);
    this.pending.delete(id);
    this.claims.delete(id);
    const endpoint = this.endpoints.get(id);
    if (endpoint) this.endpointIdsByPartner.get(endpoint.partnerId)?.delete(id);
    this.endpoints.delete(id);
  }

  async saveDelivery(delivery: WebhookDeliveryRow): Promise<void> {
    if (!this.deliveries.has(delivery.id)) {
      const ids = this.deliveryIdsByEndpoint.get(delivery.endpointId) ?? [];
      ids.push(delivery.id);
      this.deliveryIdsByEndpoint.set(delivery.endpointId, ids);
    }
    this.deliveries.set(delivery.id, copyDelivery(delivery));
    if (this.claims.get(delivery.endpointId)?.deliveryId === delivery.id) this.claims.delete(delivery.endpointId);
    const pending = this.pending.get(delivery.endpointId) ?? new Set<string>();
    if (delivery.status === "pending") pending.add(delivery.id);
    else pending.delete(delivery.id);
    if (pending.size > 0) this.pending.set(delivery.endpointId, pending);
    else this.pending.delete(delivery.endpointId);
  }

  async findDelivery(id: string): Promise<WebhookDeliveryRow | undefined> {
    const row = this.deliveries.get(id);
    return row && copyDelivery(row);
  }

  async deliveriesOf(
    endpointId: string,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<{ deliveries: WebhookDeliveryRow[]; total: number }> {
    const ids = this.deliveryIdsByEndpoint.get(endpointId) ?? [];
    const newestFirst = ids
      .slice()
      .reverse()
      .slice(offset, offset + limit);
    return { deliveries: newestFirst.map((id) => copyDelivery(this.deliveries.get(id)!)), total: ids.length };
  }

  async claimDueDelivery(endpointId: string, now: Date, leaseMs: number): Promise<WebhookDeliveryRow | undefined> {
    const claim = this.claims.get(endpointId);
    if (claim && claim.until > Date.now() && this.pending.get(endpointId)?.has(claim.deliveryId)) return undefined;
    const due = this.firstDue(endpointId, now);
    if (due) this.claims.set(endpointId, { deliveryId: due.id, until: Date.now() + leaseMs });
    return due;
  }

  private firstDue(endpointId: string, now: Date): WebhookDeliveryRow | undefined {
    // Reads in place and copies only the one returned: a receiver that was down has a backlog.
    for (const id of this.pending.get(endpointId) ?? []) {
      const delivery = this.deliveries.get(id)!;
      if (delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now) return copyDelivery(delivery);
    }
    return undefined;
  }

  async endpointsWithPendingDeliveries(): Promise<string[]> {
    return [...this.pending.keys()];
  }

  async deleteFinishedDeliveriesBefore(endpointId: string, before: Date): Promise<number> {
    const ids = this.deliveryIdsByEndpoint.get(endpointId) ?? [];
    const kept = ids.filter((id) => {
      const delivery = this.deliveries.get(id)!;
      const expired = delivery.status !== "pending" && delivery.createdAt < before;
      if (expired) this.deliveries.delete(id);
      return !expired;
    });
    this.deliveryIdsByEndpoint.set(endpointId, kept);
    return ids.length - kept.length;
  }

  async allEndpoints(): Promise<WebhookEndpointRow[]> {
    return [...this.endpoints.keys()].map((id) => this.endpointCopy(id)!);
  }
}
