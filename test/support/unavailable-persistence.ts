/**
 * A persistence whose database can be "taken away": while a part is down, every call of it rejects
 * with StoreUnavailableError, as the PostgreSQL store's do while the server restarts. Only for the
 * tests of how the server answers that (503 with Retry-After); the faults against a real
 * PostgreSQL are tested with a real one.
 */
import { StoreUnavailableError } from "../../server/platform/store-unavailable.js";
import type { ApiKeyStore } from "../../server/partners/keys/api-key-store.js";
import type { DataStores, Persistence } from "../../server/store/persistence.js";

/** The parts of a persistence that can be down, each on its own. */
export type PersistencePart =
  | "store"
  | "webhooks"
  | "idempotency"
  | "events"
  | "rateLimits"
  | "clockOffsets"
  | "apiKeys"
  | "accounts"
  | "requestHistory"
  | "framingOrigins"
  | "branding"
  | "transaction"
  | "ping";

export const RETRY_AFTER_SECONDS = 3;

export class UnavailablePersistence implements Persistence {
  /** The parts that reject now; empty: everything answers. */
  readonly down = new Set<PersistencePart>();
  readonly kind: Persistence["kind"];
  readonly connections: number;
  readonly store: Persistence["store"];
  readonly webhooks: Persistence["webhooks"];
  readonly idempotency: Persistence["idempotency"];
  readonly events: Persistence["events"];
  readonly rateLimits: Persistence["rateLimits"];
  readonly clockOffsets: Persistence["clockOffsets"];
  readonly apiKeys: ApiKeyStore;
  readonly accounts: Persistence["accounts"];
  readonly requestHistory: Persistence["requestHistory"];
  readonly framingOrigins: Persistence["framingOrigins"];
  readonly branding: Persistence["branding"];

  constructor(
    private readonly inner: Persistence,
    apiKeys: ApiKeyStore = inner.apiKeys,
  ) {
    this.kind = inner.kind;
    this.connections = inner.connections;
    this.store = this.guarded("store", inner.store);
    this.webhooks = this.guarded("webhooks", inner.webhooks);
    this.idempotency = this.guarded("idempotency", inner.idempotency);
    this.events = this.guarded("events", inner.events);
    this.rateLimits = this.guarded("rateLimits", inner.rateLimits);
    this.clockOffsets = this.guarded("clockOffsets", inner.clockOffsets);
    this.apiKeys = this.guarded("apiKeys", apiKeys);
    this.accounts = this.guarded("accounts", inner.accounts);
    this.requestHistory = this.guarded("requestHistory", inner.requestHistory);
    this.framingOrigins = this.guarded("framingOrigins", inner.framingOrigins);
    this.branding = this.guarded("branding", inner.branding);
  }

  /** Takes every part away (`parts` omitted) or the ones named. */
  takeDown(...parts: PersistencePart[]): void {
    const all: PersistencePart[] = [
      "store",
      "webhooks",
      "idempotency",
      "events",
      "rateLimits",
      "clockOffsets",
      "apiKeys",
      "accounts",
      "requestHistory",
      "framingOrigins",
      "branding",
      "transaction",
      "ping",
    ];
    for (const part of parts.length > 0 ? parts : all) this.down.add(part);
  }

  bringBack(): void {
    this.down.clear();
  }

  transaction<T>(work: (stores: DataStores) => Promise<T>): Promise<T> {
    return this.refusal("transaction") ?? this.inner.transaction(work);
  }

  ping(): Promise<void> {
    return this.refusal("ping") ?? this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private refusal(part: PersistencePart): Promise<never> | null {
    return this.down.has(part)
      ? Promise.reject(new StoreUnavailableError("the database cannot be reached (taken down by the test)", RETRY_AFTER_SECONDS))
      : null;
  }

  /** The same object, every method of which rejects while `part` is down. */
  private guarded<T extends object>(part: PersistencePart, target: T): T {
    return new Proxy(target, {
      get: (object, property) => {
        const value = Reflect.get(object, property, object) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => this.refusal(part) ?? (value as (...a: unknown[]) => unknown).apply(object, args);
      },
    });
  }
}
