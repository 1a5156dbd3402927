/** The PostgreSQL store: what the start-up, `npm run db:migrate` and the tests use of it. */
import type { Environment } from "../../../generated/deployment.js";
import { EnvironmentMismatchError, environmentProblem, stampedEnvironment } from "./environment-stamp.js";
import { CACHE_CHANNEL } from "./change-cache.js";
import { migrate, schemaProblem, schemaState } from "./migrations.js";
import { listenForChanges } from "./notification-listener.js";
import { openSql, PostgresPersistence, type PostgresLocation } from "./postgres-persistence.js";

export { EnvironmentMismatchError, stampedEnvironment } from "./environment-stamp.js";
export { migrate, schemaProblem, schemaState } from "./migrations.js";
export { openSql, PostgresPersistence, type PostgresLocation } from "./postgres-persistence.js";

/** The database's schema is not this server's: the message is one line saying what to do. */
export class SchemaNotCurrentError extends Error {}

/**
 * Opens the persistence at `location` for a deployment of `environment`. `migrateFirst` applies
 * missing migrations and stamps the database (PGlite: its directory belongs to this one process);
 * otherwise a schema behind or ahead of this server's is refused with SchemaNotCurrentError. Either
 * way a database of the other environment is refused with EnvironmentMismatchError.
 */
export async function openPostgresPersistence(
  location: PostgresLocation,
  { environment, migrateFirst = false }: { environment: Environment; migrateFirst?: boolean },
): Promise<PostgresPersistence> {
  const sql = await openSql(location);
  try {
    if (migrateFirst) await migrate(sql, environment);
    const problem = schemaProblem(await schemaState(sql));
    if (problem) throw new SchemaNotCurrentError(problem);
    const mismatch = environmentProblem(await stampedEnvironment(sql), environment);
    if (mismatch) throw new EnvironmentMismatchError(mismatch);
  } catch (error) {
    await sql.close();
    throw error;
  }
  // A server's instances each cache what changes rarely, told of every change by the database.
  const listen = "databaseUrl" in location ? listenForChanges.bind(null, location.databaseUrl, CACHE_CHANNEL) : undefined;
  return new PostgresPersistence(sql, undefined, listen);
}
