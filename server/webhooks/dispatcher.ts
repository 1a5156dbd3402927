/**
 * Delivers events to webhook endpoints, at least once. Events become deliveries when they are
 * emitted (no network inside the request that caused them); `tick` sends what is due. Each
 * endpoint is worked by one worker at a time, in creation order, and endpoints never wait for
 * each other: a slow receiver delays only its own deliveries.
 */
import { timestamp } from "../clock.js";
import type { Environment } from "../../generated/deployment.js";
import type { OutboxEvent } from "../events.js";
import { newId } from "../ids.js";
import type { PartnerClocks } from "../sandbox/partner-clocks.js";
import { nextAttemptAt } from "./retry-schedule.js";
import type { WebhookSender } from "./sender.js";
import { signatureHeader } from "./signing.js";
import type { WebhookDeliveryRow, WebhookEndpointRow, WebhookStore } from "./webhook-store.js";

export const USER_AGENT = "PartnerAPI-Webhooks/1.0";
/** The delivery log keeps finished deliveries this long (the spec's listWebhookDeliveries). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
export const API_VERSION = "v1";

/**
 * The signed body: the envelope of the spec's WebhookEvent. `sent_at` is the attempt's own time,
 * so a retry is a new signed body a receiver's replay window accepts, with the same `id`; it is a
 * transport time, on the real clock, where `created_at` is on the partner's (see `attempt`).
 */
export function envelopeOf(event: OutboxEvent, sentAt: Date): string {
  return JSON.stringify(eventEnvelope(event, sentAt));
}

/** The spec's WebhookEvent of an event: what a delivery carries, and what the events API answers. */
export function eventEnvelope(event: OutboxEvent, sentAt: Date): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    created_at: timestamp(event.createdAt),
    sent_at: timestamp(sentAt),
    api_version: API_VERSION,
    ...event.payload,
  };
}

/** The secrets that sign now: the current one, and a rotated-out one until it expires. */
export function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  return endpoint.previousSecret && endpoint.previousSecret.expiresAt > now
    ? [endpoint.secret, endpoint.previousSecret.secret]
    : [endpoint.secret];
}

export interface DispatcherOptions {
  store: () => WebhookStore;
  clocks: PartnerClocks;
  environment: Environment;
  send: WebhookSender;
  /** For the jitter; tests pass a fixed one. */
  random?: () => number;
  /**
   * How long a claimed delivery is held for this instance (real time); should it die mid-attempt,
   * another instance attempts the delivery once the lease has run out. Longer than an attempt
   * may take (the sender's timeout), or a slow attempt would be made twice at once.
   */
  leaseMs?: number;
}

/** Well beyond the sender's timeout (server/webhooks/sender.ts). */
export const DEFAULT_DELIVERY_LEASE_MS = 60_000;

export class WebhookDispatcher {
  private readonly busy = new Map<string, Promise<void>>();
  /** Ticks under way: `idle` waits for them as for the workers they start. */
  private readonly ticks = new Set<Promise<void>>();

  constructor(private readonly options: DispatcherOptions) {}

  private get leaseMs(): number {
    return this.options.leaseMs ?? DEFAULT_DELIVERY_LEASE_MS;
  }

  private get store(): WebhookStore {
    return this.options.store();
  }

  /**
   * Queues, in `store` (the transaction that emitted the event), a delivery of the event to every
   * enabled endpoint of its partner that subscribes to its type.
   */
  async fanOut(event: OutboxEvent, store: WebhookStore): Promise<void> {
    for (const endpoint of await store.endpointsOf(event.partnerId)) {
      if (!endpoint.enabled || (endpoint.events && !(endpoint.events as readonly string[]).includes(event.type))) continue;
      await this.queue(endpoint, event, store);
    }
  }

  /** A new delivery of the event to one endpoint, due at once (test events, redeliveries). */
  async queue(endpoint: WebhookEndpointRow, event: OutboxEvent, store: WebhookStore): Promise<WebhookDeliveryRow> {
    const now = this.options.clocks.clockFor(endpoint.partnerId).now();
    const delivery: WebhookDeliveryRow = {
      id: newId("whd"),
      endpointId: endpoint.id,
      partnerId: endpoint.partnerId,
      event,
      status: "pending",
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
    };
    await store.saveDelivery(delivery);
    return delivery;
  }

  /**
   * Starts a worker for every endpoint with a delivery due and no worker running; resolves when
   * the workers started by this call are done.
   */
  tick(): Promise<void> {
    const run = this.startWorkers();
    this.ticks.add(run);
    void run.finally(() => this.ticks.delete(run)).catch(() => undefined);
    return run;
  }

  private async startWorkers(): Promise<void> {
    const started: Promise<void>[] = [];
    for (const endpointId of await this.store.endpointsWithPendingDeliveries()) {
      if (this.busy.has(endpointId)) continue;
      const worker = this.work(endpointId).finally(() => this.busy.delete(endpointId));
      this.busy.set(endpointId, worker);
      started.push(worker);
    }
    await Promise.all(started);
  }

  /** Forgets finished deliveries older than the retention period; returns how many. */
  async prune(): Promise<number> {
    let pruned = 0;
    for (const endpoint of await this.store.allEndpoints()) {
      await this.options.clocks.refresh(endpoint.partnerId);
      const now = this.options.clocks.clockFor(endpoint.partnerId).now();
      pruned += await this.store.deleteFinishedDeliveriesBefore(endpoint.id, new Date(now.getTime() - DELIVERY_RETENTION_MS));
    }
    return pruned;
  }

  /** Waits for every running worker (graceful shutdown, tests). */
  async idle(): Promise<void> {
    // A tick still reading which endpoints have work has started no worker yet: wait for it too.
    await Promise.all([...this.ticks].map((run) => run.catch(() => undefined)));
    await Promise.all(this.busy.values());
  }

  private async work(endpointId: string): Promise<void> {
    for (;;) {
      const endpoint = await this.store.findEndpoint(endpointId);
      if (!endpoint?.enabled) return;
      await this.options.clocks.refresh(endpoint.partnerId);
      const now = this.options.clocks.clockFor(endpoint.partnerId).now();
      const due = await this.store.claimDueDelivery(endpointId, now, this.leaseMs);
      if (!due) return;
      await this.attempt(endpoint, due);
    }
  }

  private async attempt(endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow): Promise<void> {
    const clock = this.options.clocks.clockFor(endpoint.partnerId);
    // The log, the schedule and the secrets follow the partner's clock, as all it sees does; the
    // receiver compares sent_at with its own clock, which a sandbox's advance does not move.
    const attemptedAt = clock.now();
    const body = envelopeOf(delivery.event, this.options.clocks.base.now());
    const result = await this.options.send(endpoint.url, body, {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "Partner-Signature": signatureHeader(body, signingSecrets(endpoint, attemptedAt)),
      "Partner-Event-Id": delivery.event.id,
      "Partner-Event-Type": delivery.event.type,
    });
    // The endpoint may have been deleted or changed while the request was in flight.
    const current = await this.store.findEndpoint(endpoint.id);
    if (!current || !(await this.store.findDelivery(delivery.id))) return;
    const attempts = [
      ...delivery.attempts,
      { attemptedAt, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
    ];
    const succeeded = result.error === null;
    const next = succeeded ? null : nextAttemptAt(attempts.length, clock.now(), this.options.random ?? Math.random);
    const status = succeeded ? "succeeded" : next ? "pending" : "failed";
    await this.store.saveDelivery({ ...delivery, attempts, status, nextAttemptAt: next });
    if (succeeded && current.failing) await this.store.saveEndpoint({ ...current, failing: false });
    if (status === "failed" && !current.failing) await this.store.saveEndpoint({ ...current, failing: true });
  }
}
