/**
 * The persistence of one process, in its memory: the default of `npm start` and of most tests.
 * Nothing survives the process, and nothing is shared with another one.
 */
import { MemoryBrandingStore } from "./memory-branding-store.js";
import { MemoryAccountStore } from "./memory-account-store.js";
import { MemoryFramingOriginStore } from "./memory-framing-origin-store.js";
import { MemoryRequestHistoryStore } from "./memory-request-history-store.js";
import { MemoryEventStore } from "./memory-event-store.js";
import { MemoryIdempotencyStore } from "./memory-idempotency-store.js";
import { MemoryWindowStore } from "./memory-window-store.js";
import { MemoryWebhookStore } from "./memory-webhook-store.js";
import { MemoryApiKeyStore } from "./memory-api-key-store.js";
import { MemoryStore } from "./memory-store.js";
import type { ClockOffsetStore } from "../../domain/sandbox/clock-offset-store.js";
import type { DataStores, Persistence } from "../persistence.js";
import { inUnitOfWork, runUndoable } from "./undo-journal.js";

export class MemoryClockOffsetStore implements ClockOffsetStore {
  private readonly offsets = new Map<string, number>();

  async offsetOf(partnerId: string): Promise<number> {
    return this.offsets.get(partnerId) ?? 0;
  }

  async advance(partnerId: string, milliseconds: number): Promise<number> {
    const offset = (this.offsets.get(partnerId) ?? 0) + milliseconds;
    this.offsets.set(partnerId, offset);
    return offset;
  }

  async reset(partnerId: string): Promise<void> {
    this.offsets.delete(partnerId);
  }
}

export class MemoryPersistence implements Persistence {
  readonly kind = "memory";
  /** Its transactions run one at a time. */
  readonly connections = 1;
  readonly apiKeys = new MemoryApiKeyStore();
  readonly accounts = new MemoryAccountStore();
  readonly requestHistory = new MemoryRequestHistoryStore();
  readonly framingOrigins = new MemoryFramingOriginStore();
  readonly branding = new MemoryBrandingStore();
  readonly rateLimits = new MemoryWindowStore();
  readonly clockOffsets = new MemoryClockOffsetStore();
  readonly idempotency = new MemoryIdempotencyStore();
  readonly events = new MemoryEventStore();
  /** The end of the last transaction queued: each starts when the one before it has ended. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store = new MemoryStore(),
    readonly webhooks = new MemoryWebhookStore(),
  ) {}

  /**
   * One at a time, whatever the kind: the stores' calls are asynchronous, so without the queue two
   * requests could interleave between one's check and its write. Reads outside transactions do not
   * wait. A unit that throws has its writes to the four stores undone (undo-journal.ts); a unit
   * started within one of this persistence's units is part of it, as it could never start after it.
   */
  transaction<T>(work: (stores: DataStores) => Promise<T>): Promise<T> {
    const stores = { store: this.store, webhooks: this.webhooks, idempotency: this.idempotency, events: this.events };
    if (inUnitOfWork(this)) return work(stores);
    const run = this.queue.then(() => runUndoable(this, () => work(stores)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
