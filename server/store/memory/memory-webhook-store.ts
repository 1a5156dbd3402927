/** The in-memory adapter of webhook-store (server/domain/webhooks/webhook-store.ts): the default of `npm start` and of most tests. */
import type { OutboxEvent } from "../../platform/events.js";
import { JournaledMap, JournaledSet, journaling, recordUndo } from "./undo-journal.js";
import {
  type WebhookEndpointRow,
  type WebhookDeliveryRow,
  newDelivery,
  type OutboxEntry,
  outboxEntries,
  type WebhookStore,
} from "../../domain/webhooks/webhook-store.js";

const copyDelivery = (row: WebhookDeliveryRow): WebhookDeliveryRow => ({
  ...row,
  attempts: row.attempts.map((attempt) => ({ ...attempt })),
});

/** Removes the first `value` from a list, if there. */
function removeFrom<T>(list: T[], value: T): void {
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
}

/**
 * Its collections are journaled (store/memory/undo-journal.ts), so a unit of work that throws leaves them as
 * they were; rows are replaced, never changed in place. The sequence is not given back, as a
 * PostgreSQL sequence is not: numbers only order.
 */
export class MemoryWebhookStore implements WebhookStore {
  private readonly endpoints = new JournaledMap<string, WebhookEndpointRow>();
  /** Endpoint ids per partner, in creation order: every emitted event looks its partner's up. */
  private readonly endpointIdsByPartner = new JournaledMap<string, Set<string>>();
  private readonly deliveries = new JournaledMap<string, WebhookDeliveryRow>();
  /** Delivery ids per endpoint, in creation order. */
  private readonly deliveryIdsByEndpoint = new JournaledMap<string, string[]>();
  /** Pending delivery ids per endpoint, in the order they are attempted (by `seq`). */
  private readonly pending = new JournaledMap<string, string[]>();
  /** The claimed delivery of each endpoint and until when (real time); saving the delivery ends it. */
  private readonly claims = new JournaledMap<string, { deliveryId: string; until: number }>();
  /** Events not yet fanned out and the endpoints they go to, per partner, oldest first. */
  private readonly outbox = new JournaledMap<string, Array<OutboxEntry & { seq: number }>>();
  /**
   * One sequence for outbox entries and deliveries, as on PostgreSQL: a delivery fanned out from an
   * entry takes the entry's number, so an endpoint's deliveries go in the order their events
   * entered the outbox, whether fanned out or queued directly (test events, redeliveries).
   */
  private sequence = 0;
  private readonly seqOfDelivery = new JournaledMap<string, number>();

  async saveEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
    this.endpoints.set(endpoint.id, { ...endpoint, events: endpoint.events && [...endpoint.events] });
    let ids = this.endpointIdsByPartner.get(endpoint.partnerId);
    if (!ids) this.endpointIdsByPartner.set(endpoint.partnerId, (ids = new JournaledSet()));
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
    for (const deliveryId of this.deliveryIdsByEndpoint.get(id) ?? []) {
      this.deliveries.delete(deliveryId);
      this.seqOfDelivery.delete(deliveryId);
    }
    this.deliveryIdsByEndpoint.delete(id);
    this.pending.delete(id);
    this.claims.delete(id);
    const endpoint = this.endpoints.get(id);
    if (endpoint) this.endpointIdsByPartner.get(endpoint.partnerId)?.delete(id);
    this.endpoints.delete(id);
  }

  async markEndpointFailing(id: string, failing: boolean): Promise<void> {
    const endpoint = this.endpoints.get(id);
    if (endpoint) this.endpoints.set(id, { ...endpoint, failing });
  }

  async recordAttempt(delivery: WebhookDeliveryRow): Promise<boolean> {
    if (!this.deliveries.has(delivery.id)) return false;
    await this.saveDelivery(delivery);
    return true;
  }

  async addToOutbox(events: readonly OutboxEvent[]): Promise<void> {
    for (const entry of await outboxEntries(this, events)) {
      const numbered = { ...entry, seq: ++this.sequence };
      let waiting = this.outbox.get(entry.event.partnerId);
      if (!waiting) this.outbox.set(entry.event.partnerId, (waiting = []));
      waiting.push(numbered);
      const list = waiting;
      if (journaling()) recordUndo(() => removeFrom(list, numbered));
    }
  }

  async partnersWithOutbox(): Promise<string[]> {
    return [...this.outbox.keys()];
  }

  async dueDeliveriesOf(partnerId: string, now: Date, atMost: number): Promise<number> {
    const before = this.outbox.get(partnerId)?.[0]?.seq ?? Number.POSITIVE_INFINITY;
    let due = 0;
    for (const endpointId of this.endpointIdsByPartner.get(partnerId) ?? [])
      for (const id of this.pending.get(endpointId) ?? []) {
        const next = this.deliveries.get(id)!.nextAttemptAt;
        if (next !== null && next <= now && this.seqOfDelivery.get(id)! < before && ++due >= atMost) return due;
      }
    return due;
  }

  async fanOutOldest(partnerId: string, limit: number, now: Date): Promise<number> {
    const waiting = this.outbox.get(partnerId);
    if (!waiting) return 0;
    const taken = waiting.splice(0, limit);
    if (journaling()) recordUndo(() => waiting.unshift(...taken));
    if (waiting.length === 0) this.outbox.delete(partnerId);
    for (const { event, endpointIds, seq } of taken)
      for (const id of endpointIds) {
        const endpoint = this.endpoints.get(id);
        if (endpoint) this.putDelivery(newDelivery(endpoint, event, now), seq);
      }
    return taken.length;
  }

  async saveDelivery(delivery: WebhookDeliveryRow): Promise<void> {
    this.putDelivery(delivery, this.deliveries.has(delivery.id) ? undefined : ++this.sequence);
  }

  /** Saves the delivery; a new one takes its place in its endpoint's order by `seq`. */
  private putDelivery(delivery: WebhookDeliveryRow, seq: number | undefined): void {
    const wasPending = this.deliveries.get(delivery.id)?.status === "pending";
    if (seq !== undefined) {
      this.seqOfDelivery.set(delivery.id, seq);
      this.insertInOrder(this.deliveryIdsByEndpoint, delivery.endpointId, delivery.id);
    }
    this.deliveries.set(delivery.id, copyDelivery(delivery));
    if (this.claims.get(delivery.endpointId)?.deliveryId === delivery.id) this.claims.delete(delivery.endpointId);
    const isPending = delivery.status === "pending";
    if (isPending && !wasPending) this.insertInOrder(this.pending, delivery.endpointId, delivery.id);
    if (!isPending && wasPending) {
      const pending = this.pending.get(delivery.endpointId)!;
      pending.splice(pending.indexOf(delivery.id), 1);
      if (journaling()) recordUndo(() => this.placeInOrder(pending, delivery.id));
      if (pending.length === 0) this.pending.delete(delivery.endpointId);
    }
  }

  /** Adds a delivery id to an endpoint's list kept in `seq` order. */
  private insertInOrder(lists: Map<string, string[]>, endpointId: string, id: string): void {
    let ids = lists.get(endpointId);
    if (!ids) lists.set(endpointId, (ids = []));
    this.placeInOrder(ids, id);
    const list = ids;
    if (journaling()) recordUndo(() => removeFrom(list, id));
  }

  private placeInOrder(ids: string[], id: string): void {
    const seq = this.seqOfDelivery.get(id)!;
    // Nearly always the last place: only a fan-out that finds a newer direct delivery goes before it.
    let at = ids.length;
    while (at > 0 && this.seqOfDelivery.get(ids[at - 1]!)! > seq) at--;
    ids.splice(at, 0, id);
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
    if (claim && claim.until > Date.now() && this.deliveries.get(claim.deliveryId)?.status === "pending") return undefined;
    const due = this.firstDue(endpointId, now);
    if (due) this.claims.set(endpointId, { deliveryId: due.id, until: Date.now() + leaseMs });
    return due;
  }

  private firstDue(endpointId: string, now: Date): WebhookDeliveryRow | undefined {
    // Reads in place and copies only the one returned: a receiver that was down has a backlog.
    for (const id of this.pending.get(endpointId) ?? []) {
      const delivery = this.deliveries.get(id)!;
      if (delivery.nextAttemptAt === null || delivery.nextAttemptAt > now) continue;
      // An event that entered the outbox earlier goes first, once fanned out.
      const waiting = this.outbox.get(delivery.partnerId)?.[0];
      return waiting && waiting.seq < this.seqOfDelivery.get(id)! ? undefined : copyDelivery(delivery);
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
      if (expired) {
        this.deliveries.delete(id);
        this.seqOfDelivery.delete(id);
      }
      return !expired;
    });
    this.deliveryIdsByEndpoint.set(endpointId, kept);
    return ids.length - kept.length;
  }

  async allEndpoints(): Promise<WebhookEndpointRow[]> {
    return [...this.endpoints.keys()].map((id) => this.endpointCopy(id)!);
  }
}
