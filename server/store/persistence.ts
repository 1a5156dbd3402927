/**
 * Where a deployment keeps what it shares: the one contract the memory store and the PostgreSQL
 * store (on a server or embedded, PGlite) both implement. Everything several instances must agree
 * on lives behind it: the service's data, webhook endpoints and their outbox of deliveries,
 * rate-limit counters, sandbox clocks and partners' API keys.
 */
import type { AccountStore } from "../partners/accounts/account-store.js";
import type { BrandingStore } from "../partners/branding/branding-store.js";
import type { FramingOriginStore } from "../partners/framing/framing-origin-store.js";
import type { EventStore } from "../domain/events/event-store.js";
import type { IdempotencyStore } from "../platform/idempotency/idempotency-store.js";
import type { RequestHistoryStore } from "../partners/request-history/request-history-store.js";
import type { WindowStore } from "../platform/rate-limits/window-store.js";
import type { WebhookStore } from "../domain/webhooks/webhook-store.js";
import type { ApiKeyStore } from "../partners/keys/api-key-store.js";
import type { RequestAdmission } from "../partners/keys/request-admission.js";
import type { ClockOffsetStore } from "../domain/sandbox/clock-offset-store.js";
import type { Store } from "./store.js";

/** What one unit of work reads and writes through: should the work throw, none of its writes to them remain, on every store. */
export interface DataStores {
  store: Store;
  webhooks: WebhookStore;
  /** Where a request's answer is stored with its writes (its Idempotency-Key's). */
  idempotency: IdempotencyStore;
  /** Where the events a unit of work emits are kept, with its writes. */
  events: EventStore;
}

/**
 * How a unit of work is kept apart from concurrent ones. `serializable`: as if units ran one after
 * another, whatever they read. `domain-locked`: every domain the work reads is locked until it
 * ends, and each read sees what was committed before it (READ COMMITTED): for work whose every rule
 * is about one domain (its DNS records: the record cap, a CNAME alone at its name, no record twice;
 * its delegation: one pending nameserver change, the DS records' cap, glue for its nameservers),
 * so writers of one zone take turns and writers of different zones never wait or conflict. It holds
 * while every writer of those rows locks the domain first; serializable work that writes them also
 * writes the domain's row, so it waits for the lock or is run again.
 */
export type UnitOfWork = "serializable" | "domain-locked";

export interface Persistence {
  readonly kind: "memory" | "postgres";
  /** Units of work it runs at once: the pool's connections; one for the memory store and PGlite. */
  readonly connections: number;
  /** Reads outside any transaction; each call sees what was committed when it ran. */
  readonly store: Store;
  readonly webhooks: WebhookStore;
  /** Idempotency keys: taken outside the transaction of their request, so every instance sees them at once. */
  readonly idempotency: IdempotencyStore;
  /** Every event emitted, read by the events API. */
  readonly events: EventStore;
  readonly rateLimits: WindowStore;
  readonly clockOffsets: ClockOffsetStore;
  /** Keys made in the dashboard, or with `npm run keys` on a database. */
  readonly apiKeys: ApiKeyStore;
  /** Partner accounts of the dashboard, their members, invitations and sessions. */
  readonly accounts: AccountStore;
  /** The partners' request logs the dashboard shows. */
  readonly requestHistory: RequestHistoryStore;
  /** Origins partners set in the dashboard as allowed to frame the embedded interface. */
  readonly framingOrigins: FramingOriginStore;
  /** The partners' look in the embedded interface: accent colour and logo. */
  readonly branding: BrandingStore;
  /**
   * Present where keys and clocks are kept in memory beside the database (a PostgreSQL server): the
   * request's admission, which checks them as the database stands while it counts the request.
   * Absent, every key and clock is read from where it is kept on each request.
   */
  readonly admission?: RequestAdmission;
  /**
   * Runs `work` as one transaction: all its writes or none, and the rules it checks hold against
   * every concurrent writer. PostgreSQL runs it SERIALIZABLE and runs it again from the start when
   * the database reports a serialization failure or deadlock (so `work` must do nothing outside
   * the stores it is given that it would regret doing twice); the memory store runs one at a time
   * and undoes the writes of a `work` that throws (undo-journal.ts).
   */
  transaction<T>(work: (stores: DataStores) => Promise<T>, kind?: UnitOfWork): Promise<T>;
  /** Resolves when the store answers (GET /health); throws StoreUnavailableError when it does not. */
  ping(): Promise<void>;
  /** Ends connections; the memory store has none. */
  close(): Promise<void>;
}
