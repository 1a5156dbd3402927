/**
 * Where a deployment keeps what it shares: the one contract the memory store and the PostgreSQL
 * store (on a server or embedded, PGlite) both implement. Everything several instances must agree
 * on lives behind it: the service's data, webhook endpoints and their outbox of deliveries,
 * rate-limit counters, sandbox clocks and partners' API keys.
 */
import type { Environment } from "../../generated/deployment.js";
import type { AccountStore } from "../accounts/account-store.js";
import type { BrandingStore } from "../branding/branding-store.js";
import type { FramingOriginStore } from "../framing/framing-origin-store.js";
import type { EventStore } from "../event-history/event-store.js";
import type { IdempotencyStore } from "../idempotency/idempotency-store.js";
import type { RequestHistoryStore } from "../request-history/request-history-store.js";
import type { WindowStore } from "../rate-limits/window-store.js";
import type { WebhookStore } from "../webhooks/webhook-store.js";
import type { Store } from "./types.js";

/** What one unit of work reads and writes through: should the work throw, none of its writes to them remain, on every store. */
export interface DataStores {
  store: Store;
  webhooks: WebhookStore;
  /** Where a request's answer is stored with its writes (its Idempotency-Key's). */
  idempotency: IdempotencyStore;
  /** Where the events a unit of work emits are kept, with its writes. */
  events: EventStore;
}

/** How far each partner's sandbox clock runs ahead of the deployment's, shared by every instance. */
export interface ClockOffsetStore {
  /** Milliseconds the partner's clock is ahead; 0 for a partner that never advanced. */
  offsetOf(partnerId: string): Promise<number>;
  /** Moves the partner's clock ahead in one step (concurrent advances add up); returns the new offset. */
  advance(partnerId: string, milliseconds: number): Promise<number>;
  reset(partnerId: string): Promise<void>;
}

/** A partner's API key as stored: only its SHA-256 hash. */
export interface StoredApiKey {
  /** Names the key in the dashboard; never derived from the key. */
  id: string;
  /** SHA-256 of the key, hex. */
  hash: string;
  partnerId: string;
  partnerName: string;
  environment: Environment;
  /** The descriptive name given at creation ("Production web app"). */
  name: string;
  createdAt: Date;
  /** The first characters of the key, to tell keys apart in listings (never enough to use it). */
  hint: string;
  /** The key's last four characters, as listings show them. */
  lastFour: string;
  /** When the key last authenticated a request, to the minute; null: never. */
  lastUsedAt: Date | null;
  /** When a rolled key stops being accepted; null: until it is revoked. */
  expiresAt: Date | null;
}

/**
 * Partners' API keys kept in the store every instance asks on every request: a key revoked, or
 * past the end of its grace period, is refused by every instance on its next request.
 */
export interface ApiKeyStore {
  /** The key with this hash, unless it is unknown, revoked, or expired by `now`. */
  findKey(hash: string, now: Date): Promise<StoredApiKey | undefined>;
  addKey(key: StoredApiKey): Promise<void>;
  /** Answers whether a key was revoked. */
  revokeKey(hash: string): Promise<boolean>;
  /** Every key of the environment, expired or not, oldest first (`npm run keys -- list`). */
  keysOf(environment: Environment): Promise<StoredApiKey[]>;
  /** The partner's keys of the environment still accepted at `now`, oldest first. */
  keysOfPartner(partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]>;
  /** Revokes the partner's key by its id; answers whether there was one. */
  revokeKeyById(partnerId: string, id: string): Promise<boolean>;
  /** Ends the partner's key at `at` unless it already ends sooner (a roll's grace period); answers whether there was one. */
  expireKey(partnerId: string, id: string, at: Date): Promise<boolean>;
  /** Records that the key authenticated a request at `at`. */
  touchKey(hash: string, at: Date): Promise<void>;
  /** Forgets keys whose grace period ended by `now`. */
  deleteExpiredKeys(now: Date): Promise<number>;
}

/**
 * How a unit of work is kept apart from concurrent ones. `serializable`: as if units ran one after
 * another, whatever they read. `domain-locked`: every domain the work reads is locked until it
 * ends, and each read sees what was committed before it (READ COMMITTED): for work whose every rule
 * is about one domain (its DNS records: the record cap, a CNAME alone at its name, no record twice),
 * so writers of one zone take turns and writers of different zones never wait or conflict.
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

/**
 * Thrown by a database store while the database cannot be reached, or no connection of the pool
 * came free in time: the API answers 503 with Retry-After, never a 500.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    /** Seconds after which a retry is worth it. */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}
