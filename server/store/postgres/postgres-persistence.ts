/**
 * The persistence on PostgreSQL: a server every instance shares (DATABASE_URL), or PGlite in a
 * directory (PARTNER_API_DATA_DIR) or in memory (tests). Each unit of work is one SERIALIZABLE
 * transaction, run again when the database reports that it conflicted with a concurrent one: the
 * rules the service code checks inside it then hold across instances, with the unique indexes of
 * the schema as the last word on names registered once and one active transfer per name.
 */
import { PgBrandingStore } from "./pg-branding-store.js";
import { lockDataDirectory } from "./data-directory-lock.js";
import { PgAccountStore, PgFramingOriginStore, PgRequestHistoryStore } from "./pg-dashboard-stores.js";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";
import { StoreUnavailableError } from "../../platform/store-unavailable.js";
import type { DataStores, Persistence, UnitOfWork } from "../persistence.js";
import { PgEventStore } from "./pg-event-store.js";
import { PgIdempotencyStore } from "./pg-idempotency-store.js";
import { PgApiKeyStore, PgClockOffsetStore, PgRequestAdmission, PgWindowStore } from "./pg-shared-stores.js";
import type { ApiKeyStore } from "../../partners/keys/api-key-store.js";
import type { BrandingStore } from "../../partners/branding/branding-store.js";
import type { ClockOffsetStore } from "../../domain/sandbox/clock-offset-store.js";
import type { FramingOriginStore } from "../../partners/framing/framing-origin-store.js";
import { CachedApiKeyStore, CachedBrandingStore, CachedClockOffsetStore, CachedFramingOriginStore } from "./cached-stores.js";
import { ChangeCaches } from "./change-cache.js";
import type { ChangeSubscription, ListenForChanges } from "./notification-listener.js";
import { PgStore } from "./pg-store.js";
import { PgWebhookStore } from "./pg-webhook-store.js";
import { postgresJsSql } from "./postgres-js-sql.js";
import { pgliteSql, type Sql } from "./sql-client.js";

/** serialization_failure and deadlock_detected: the database's word that a run again may succeed. */
const CONFLICTS = new Set(["40001", "40P01"]);
/**
 * unique_violation: under SERIALIZABLE, two transactions that both found a name free and both
 * inserted it can also end with the second's unique violation; run again, it finds the name taken
 * and answers as the service does. One run again shows that; a violation that stays is a defect.
 */
const UNIQUE_VIOLATION = "23505";
const UNIQUE_VIOLATION_ATTEMPTS = 3;
/**
 * How long one unit of work is run again after conflicts, then answered as unavailable (503 with
 * Retry-After): the database is too contended to take it now. A time, not a number of attempts:
 * writers of one row take turns, so the last of many waits for all the others, and on a busy
 * machine each turn is slower. Well inside the HTTP server's request timeout.
 */
export const CONFLICT_RETRY_BUDGET_MS = 10_000;
/** The longest pause between two runs of a unit that conflicted. */
const MAX_CONFLICT_PAUSE_MS = 100;

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

export class PostgresPersistence implements Persistence {
  readonly kind = "postgres";
  readonly store: PgStore;
  readonly webhooks: PgWebhookStore;
  readonly rateLimits: PgWindowStore;
  readonly clockOffsets: ClockOffsetStore;
  readonly apiKeys: ApiKeyStore;
  readonly idempotency: PgIdempotencyStore;
  readonly events: PgEventStore;
  readonly accounts: PgAccountStore;
  readonly requestHistory: PgRequestHistoryStore;
  readonly framingOrigins: FramingOriginStore;
  readonly branding: BrandingStore;
  /**
   * This instance's caches of keys, clock offsets, framing origins and branding, when it was given
   * a way to hear the database's changes: on a server, which other instances and `npm run keys`
   * write too, each read saved is a round trip. Null without one: PGlite runs in this process, so a
   * read crosses no network, and the rows it would save are not worth a second copy kept right.
   */
  readonly caches: ChangeCaches | null;
  /** With the caches: a request's key and clock checked as the database stands while it is counted. */
  readonly admission?: PgRequestAdmission;
  private readonly changes: ChangeSubscription | null;

  get connections(): number {
    return this.sql.connections;
  }

  /** `listen`: how this instance hears the database's changes (notification-listener.ts); given, it caches what changes rarely. */
  constructor(
    readonly sql: Sql,
    private readonly conflictRetryBudgetMs = CONFLICT_RETRY_BUDGET_MS,
    listen?: ListenForChanges,
  ) {
    this.store = new PgStore(sql);
    this.webhooks = new PgWebhookStore(sql);
    this.rateLimits = new PgWindowStore(sql);
    this.idempotency = new PgIdempotencyStore(sql);
    this.events = new PgEventStore(sql);
    this.accounts = new PgAccountStore(sql);
    this.requestHistory = new PgRequestHistoryStore(sql);
    const clockOffsets = new PgClockOffsetStore(sql);
    const apiKeys = new PgApiKeyStore(sql);
    const framingOrigins = new PgFramingOriginStore(sql);
    const branding = new PgBrandingStore(sql);
    if (listen) {
      const caches = new ChangeCaches();
      this.caches = caches;
      this.clockOffsets = new CachedClockOffsetStore(clockOffsets, caches);
      this.apiKeys = new CachedApiKeyStore(apiKeys, caches);
      this.framingOrigins = new CachedFramingOriginStore(framingOrigins, caches);
      this.branding = new CachedBrandingStore(branding, caches);
      this.admission = new PgRequestAdmission(sql);
      this.changes = listen(caches);
    } else {
      this.caches = null;
      this.changes = null;
      this.clockOffsets = clockOffsets;
      this.apiKeys = apiKeys;
      this.framingOrigins = framingOrigins;
      this.branding = branding;
    }
  }

  async transaction<T>(work: (stores: DataStores) => Promise<T>, kind: UnitOfWork = "serializable"): Promise<T> {
    const domainLocked = kind === "domain-locked";
    const giveUpAt = performance.now() + this.conflictRetryBudgetMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sql.transaction(
          (tx) =>
            work({
              store: new PgStore(tx, { lockDomainsRead: domainLocked }),
              webhooks: new PgWebhookStore(tx),
              idempotency: new PgIdempotencyStore(tx),
              events: new PgEventStore(tx),
            }),
          domainLocked ? "read committed" : "serializable",
        );
      } catch (error) {
        const code = codeOf(error) as string;
        if (code === UNIQUE_VIOLATION && attempt < UNIQUE_VIOLATION_ATTEMPTS) continue;
        if (!CONFLICTS.has(code)) throw error;
        // Jittered and growing, so the writers that conflicted do not meet again at once.
        const pause = Math.random() * Math.min(MAX_CONFLICT_PAUSE_MS, 2 ** attempt);
        if (performance.now() + pause >= giveUpAt)
          throw new StoreUnavailableError(`a unit of work conflicted with concurrent ones ${attempt} times`, 1, { cause: error });
        await sleep(pause);
      }
    }
  }

  async ping(): Promise<void> {
    await this.sql.query("SELECT 1");
  }

  async close(): Promise<void> {
    await this.changes?.close();
    await this.sql.close();
  }
}

/**
 * Connections per instance unless PARTNER_API_DB_POOL_SIZE says: a request holds one only while
 * its queries run, so a few keep an instance's one event loop busy; more only queue inside the
 * database (bench/results/ has the measurement behind it).
 */
export const DEFAULT_POOL_SIZE = 10;

export type PostgresLocation = { databaseUrl: string; poolSize?: number } | { dataDir: string } | { inMemory: true };

/** The SQL client of a location, without checking its schema. */
export async function openSql(location: PostgresLocation): Promise<Sql> {
  if ("databaseUrl" in location)
    return postgresJsSql({ connectionString: location.databaseUrl, max: location.poolSize ?? DEFAULT_POOL_SIZE });
  const { PGlite } = loadPglite();
  if (!("dataDir" in location)) return pgliteSql(await PGlite.create());
  const lock = lockDataDirectory(location.dataDir);
  let sql: Sql;
  try {
    sql = pgliteSql(await PGlite.create(location.dataDir));
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    ...sql,
    close: async () => {
      try {
        await sql.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * PGlite, loaded only where used: a server on memory or on a PostgreSQL server never loads the
 * WebAssembly. Required (its CommonJS build), not imported: the built server is a script run by
 * vm.Script (server/assembly/cached-bundle-loader.ts), where an import() needs Node's experimental loader
 * option, which warns at every start. From this module's address, so the built server finds it
 * in the checkout's node_modules (scripts/lib/server-build.ts keeps it out of the bundle).
 */
function loadPglite(): typeof import("@electric-sql/pglite") {
  return createRequire(import.meta.url)("@electric-sql/pglite") as typeof import("@electric-sql/pglite");
}
