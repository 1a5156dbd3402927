/**
 * Delivers events to webhook endpoints, at least once. A request's transaction writes one outbox
 * entry per event it emitted (server/application/transactions.ts); `tick` fans the outbox out into deliveries
 * in bounded batches, each a short transaction of its own, then sends what is due. Each endpoint
 * is worked by one worker at a time, in creation order, and endpoints never wait for each other: a
 * slow receiver delays only its own deliveries.
 */
import { setImmediate } from "node:timers/promises";
import { timestamp } from "../../platform/clock.js";
import type { Environment } from "../../../generated/deployment.js";
import type { OutboxEvent } from "../../platform/events.js";
import type { PartnerClocks } from "../sandbox/partner-clocks.js";
import { nextAttemptAt } from "./retry-schedule.js";
import { signatureHeader } from "./signing.js";
import { PartnerShares } from "../../platform/partner-shares.js";
import { DELIVERY_TIMEOUT_MS, type WebhookSender } from "./sender.js";
import { newDelivery, type WebhookDeliveryRow, type WebhookEndpointRow, type WebhookStore } from "./webhook-store.js";

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
   * The connections of the store: the dispatcher's statements run on at most a quarter of them
   * (at least one), so sixteen endpoints' workers claiming and recording at once never take the
   * connections the requests need. Default: one.
   */
  connections?: () => number;
  /**
   * How long a claimed delivery is held for this instance (real time); should it die mid-attempt,
   * another instance attempts the delivery once the lease has run out. An attempt ends at its
   * deadline (`attemptDeadlineMs`), well before, so a slow attempt is never made twice at once.
   */
  leaseMs?: number;
}

/** Well beyond an attempt's deadline, leaving the recording of its outcome time to spare. */
export const DEFAULT_DELIVERY_LEASE_MS = 60_000;

/**
 * The one deadline of an attempt, from the lookup to the last byte of the answer: the spec's 10
 * seconds, or half the lease when the lease is shorter than twice that (tests shorten it), so an
 * attempt and the recording of its outcome end while the delivery is still held.
 */
export const attemptDeadlineMs = (leaseMs: number): number => Math.min(DELIVERY_TIMEOUT_MS, Math.floor(leaseMs / 2));

/**
 * Outbox events one fan-out unit takes: it writes at most the endpoints a partner may have times
 * as many deliveries, a transaction that stays short whatever the backlog.
 */
export const FAN_OUT_BATCH = 64;
/**
 * Batches one fan-out run takes at most before the tick that started it goes on to send: a
 * backlog is worked off over several ticks, and sending never waits for all of it.
 */
export const FAN_OUT_BATCHES_PER_RUN = 32;
/**
 * A partner's deliveries due and not yet sent beyond which its outbox is not fanned out further:
 * a backlog waits as one compact entry per event, and deliveries are written about as fast as
 * they are sent. A receiver that fails is retried later, so its deliveries are not due and hold
 * nothing back.
 */
export const FAN_OUT_AHEAD = 1024;
/**
 * Attempts one partner's endpoints make at once on an instance; its other endpoints take turns
 * with them, a delivery at a time. Each attempt costs the instance's one event loop a signed
 * request: a partner with a backlog on many endpoints would otherwise take it from every request.
 */
export const MAX_ATTEMPTS_PER_PARTNER = 4;

export class WebhookDispatcher {
  private readonly busy = new Map<string, Promise<void>>();
  /** Ticks under way: `idle` waits for them as for the workers they start. */
  private readonly ticks = new Set<Promise<void>>();
  /** The fan-out under way in this process. */
  private fanning: Promise<void> | null = null;
  /** A prompted tick is about to start. */
  private prompted = false;
  /** The store as the dispatcher reaches it: each call within the dispatcher's share of the connections. */
  private readonly limitedStores = new WeakMap<WebhookStore, WebhookStore>();
  private shares: PartnerShares | undefined;
  /** Attempts under way per partner: one partner's endpoints cannot take every attempt this instance makes. */
  private readonly attemptsPerPartner = PartnerShares.waitingAsLongAsItTakes(MAX_ATTEMPTS_PER_PARTNER);

  constructor(private readonly options: DispatcherOptions) {}

  private get leaseMs(): number {
    return this.options.leaseMs ?? DEFAULT_DELIVERY_LEASE_MS;
  }

  private get store(): WebhookStore {
    const store = this.options.store();
    let limited = this.limitedStores.get(store);
    if (!limited) this.limitedStores.set(store, (limited = this.limited(store)));
    return limited;
  }

  /** The store with every call run within the dispatcher's share of the connections. */
  private limited(store: WebhookStore): WebhookStore {
    const slots = Math.max(1, Math.floor((this.options.connections?.() ?? 1) / 4));
    if (this.shares?.perPartner !== slots) this.shares = PartnerShares.waitingAsLongAsItTakes(slots);
    const shares = this.shares;
    return new Proxy(store, {
      get: (target, name) => {
        const value = Reflect.get(target, name) as unknown;
        return typeof value === "function"
          ? (...args: unknown[]) => shares.run("dispatcher", () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args))
          : value;
      },
    });
  }

  /** A new delivery of the event to one endpoint, due at once (test events, redeliveries, replays). */
  async queue(endpoint: WebhookEndpointRow, event: OutboxEvent, store: WebhookStore): Promise<WebhookDeliveryRow> {
    const delivery = newDelivery(endpoint, event, this.options.clocks.clockFor(endpoint.partnerId).now());
    await store.saveDelivery(delivery);
    return delivery;
  }

  /**
   * Turns the outbox into deliveries, a batch per partner in turn, so one partner's backlog does not
   * hold up another's events; resolves once the outbox was found empty (or left to another
   * instance fanning out the same partner), or after FAN_OUT_BATCHES_PER_RUN batches. One run at a
   * time per process: a call during a run waits for it.
   */
  fanOut(): Promise<void> {
    this.fanning ??= this.fanOutRounds().finally(() => {
      this.fanning = null;
    });
    return this.fanning;
  }

  private async fanOutRounds(): Promise<void> {
    let budget = FAN_OUT_BATCHES_PER_RUN;
    // A partner's clock is read from the store once a run, not once a batch.
    const refreshed = new Set<string>();
    for (let partners = await this.store.partnersWithOutbox(); partners.length > 0 && budget > 0; ) {
      const more: string[] = [];
      for (const partnerId of partners) {
        if (budget-- <= 0) break;
        if (!refreshed.has(partnerId)) {
          await this.options.clocks.refresh(partnerId);
          refreshed.add(partnerId);
        }
        const now = this.options.clocks.clockFor(partnerId).now();
        if ((await this.store.dueDeliveriesOf(partnerId, now, FAN_OUT_AHEAD)) >= FAN_OUT_AHEAD) continue;
        if ((await this.store.fanOutOldest(partnerId, FAN_OUT_BATCH, now)) === FAN_OUT_BATCH) more.push(partnerId);
        // Requests are served between batches: on the memory store a batch is all microtasks, which nothing else interleaves.
        await setImmediate();
      }
      partners = more;
    }
  }

  /**
   * Asks for a tick soon, to send what a commit just made due: the asks made before it starts
   * (a change set's thousand events) make one tick.
   */
  prompt(): void {
    if (this.prompted) return;
    this.prompted = true;
    setImmediate().then(() => {
      this.prompted = false;
      // Dropped should it fail (the database out of reach): the periodic tick retries and logs why.
      this.tick().catch(() => undefined);
    });
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
    await this.fanOut();
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
    await this.fanning?.catch(() => undefined);
  }

  private async work(endpointId: string): Promise<void> {
    for (let more = true; more; ) {
      const endpoint = await this.store.findEndpoint(endpointId);
      if (!endpoint?.enabled) return;
      // Claimed only once the partner has a place for the attempt, so waiting for one never eats into the lease.
      more = await this.attemptsPerPartner.run(endpoint.partnerId, async () => {
        await this.options.clocks.refresh(endpoint.partnerId);
        const now = this.options.clocks.clockFor(endpoint.partnerId).now();
        const due = await this.store.claimDueDelivery(endpointId, now, this.leaseMs);
        if (due) await this.attempt(endpoint, due);
        return due !== undefined;
      });
    }
  }

  private async attempt(endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow): Promise<void> {
    const clock = this.options.clocks.clockFor(endpoint.partnerId);
    // The log, the schedule and the secrets follow the partner's clock, as all it sees does; the
    // receiver compares sent_at with its own clock, which a sandbox's advance does not move.
    const attemptedAt = clock.now();
    const body = envelopeOf(delivery.event, this.options.clocks.base.now());
    const result = await this.options.send(
      endpoint.url,
      body,
      {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Partner-Signature": signatureHeader(body, signingSecrets(endpoint, attemptedAt)),
        "Partner-Event-Id": delivery.event.id,
        "Partner-Event-Type": delivery.event.type,
      },
      attemptDeadlineMs(this.leaseMs),
    );
    const attempts = [
      ...delivery.attempts,
      { attemptedAt, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
    ];
    const succeeded = result.error === null;
    const next = succeeded ? null : nextAttemptAt(attempts.length, clock.now(), this.options.random ?? Math.random);
    const status = succeeded ? "succeeded" : next ? "pending" : "failed";
    // The endpoint may have been deleted, with its deliveries, while the request was in flight:
    // then nothing is recorded, and nothing brought back.
    if (!(await this.store.recordAttempt({ ...delivery, attempts, status, nextAttemptAt: next }))) return;
    if (succeeded && endpoint.failing) await this.store.markEndpointFailing(endpoint.id, false);
    if (status === "failed" && !endpoint.failing) await this.store.markEndpointFailing(endpoint.id, true);
  }
}
