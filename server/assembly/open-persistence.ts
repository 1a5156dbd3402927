/**
 * Opens where a deployment keeps its data, from its configuration: this process's memory, a
 * PostgreSQL server (DATABASE_URL) or the embedded PostgreSQL, PGlite (PARTNER_API_DATA_DIR).
 */
import type { Environment } from "../../generated/deployment.js";
import type { StorageConfig } from "./config.js";
import { MemoryPersistence } from "../store/memory/memory-persistence.js";
import type { Persistence } from "../store/persistence.js";
import { openPostgresPersistence } from "../store/postgres/index.js";

export { EnvironmentMismatchError, SchemaNotCurrentError } from "../store/postgres/index.js";

/**
 * Opens the configured persistence. PostgreSQL: refuses (SchemaNotCurrentError) a database whose
 * schema is behind or ahead of this server's; migrating is an operator's step (`npm run db:migrate`),
 * taken once before a new version's instances start. PGlite: migrates first, since its directory
 * belongs to this one process and nobody else could run the step. Either: refuses
 * (EnvironmentMismatchError) a database of the other environment than `environment`'s.
 */
export async function openPersistence(storage: StorageConfig, environment: Environment): Promise<Persistence> {
  if (storage.kind === "memory") return new MemoryPersistence();
  if (storage.kind === "pglite") return openPostgresPersistence({ dataDir: storage.dataDir }, { environment, migrateFirst: true });
  return openPostgresPersistence({ databaseUrl: storage.databaseUrl, poolSize: storage.poolSize }, { environment });
}
