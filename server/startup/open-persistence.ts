/**
 * Opens where a deployment keeps its data, from its configuration: this process's memory, a
 * PostgreSQL server (DATABASE_URL) or the embedded PostgreSQL, PGlite (PARTNER_API_DATA_DIR).
 *
 * The one module that loads the PostgreSQL store (server/store/postgres/), so that store and this
 * wiring meet here and nowhere else: `PostgresStoreModule` is what the wiring needs of it.
 */
import type { StorageConfig } from "../config.js";
import { MemoryPersistence } from "../store/memory-persistence.js";
import type { Persistence } from "../store/persistence.js";

/** What the start-up needs of server/store/postgres/index.ts. */
export interface PostgresStoreModule {
  openPostgresPersistence(options: { databaseUrl: string; poolSize?: number } | { dataDir: string }): Promise<Persistence>;
  /** Applies the migrations the database lacks (what `npm run db:migrate` does). */
  migrate(options: { databaseUrl: string } | { dataDir: string }): Promise<void>;
  /**
   * Resolves when the database's schema is the one this server was built for; otherwise throws an
   * Error whose message says to run `npm run db:migrate` (behind) or names the newer migrations (ahead).
   */
  schemaState(options: { databaseUrl: string } | { dataDir: string }): Promise<void>;
}

/** The database's schema is not this server's: one line saying what to run, and the server does not start. */
export class SchemaNotCurrentError extends Error {}

/** This build has no PostgreSQL store, or it cannot be loaded: one line, the server does not start. */
export class PostgresStoreMissingError extends Error {}

/**
 * The store's path as a value, not a literal: a build without server/store/postgres/ still
 * compiles and bundles, and says so in one line when DATABASE_URL or PARTNER_API_DATA_DIR asks for it.
 */
const POSTGRES_STORE = "../store/postgres/index.js";

async function loadPostgresStore(): Promise<PostgresStoreModule> {
  try {
    return (await import(POSTGRES_STORE)) as PostgresStoreModule;
  } catch (error) {
    throw new PostgresStoreMissingError("this build of the server has no PostgreSQL store (server/store/postgres/)", { cause: error });
  }
}

/** The first line of an Error naming `npm run db:migrate`, as a SchemaNotCurrentError; anything else unchanged. */
function schemaRefusal(error: unknown): unknown {
  if (!(error instanceof Error) || !error.message.includes("npm run db:migrate")) return error;
  return new SchemaNotCurrentError(error.message.split("\n")[0]!, { cause: error });
}

/**
 * Opens the configured persistence. PostgreSQL: refuses (SchemaNotCurrentError) a database whose
 * schema is behind or ahead of this server's; migrating is an operator's step (`npm run db:migrate`),
 * taken once before a new version's instances start. PGlite: migrates first, since its directory
 * belongs to this one process and nobody else could run the step.
 */
export async function openPersistence(storage: StorageConfig): Promise<Persistence> {
  if (storage.kind === "memory") return new MemoryPersistence();
  const postgres = await loadPostgresStore();
  try {
    if (storage.kind === "pglite") {
      await postgres.migrate({ dataDir: storage.dataDir });
      return await postgres.openPostgresPersistence({ dataDir: storage.dataDir });
    }
    await postgres.schemaState({ databaseUrl: storage.databaseUrl });
    return await postgres.openPostgresPersistence({ databaseUrl: storage.databaseUrl, poolSize: storage.poolSize });
  } catch (error) {
    throw schemaRefusal(error);
  }
}
