/** The PostgreSQL store: what the start-up, `npm run db:migrate` and the tests use of it. */
import { migrate, schemaProblem, schemaState } from "./migrations.js";
import { openSql, PostgresPersistence, type PostgresLocation } from "./postgres-persistence.js";

export { migrate, schemaProblem, schemaState } from "./migrations.js";
export { openSql, PostgresPersistence, type PostgresLocation } from "./postgres-persistence.js";

/** The database's schema is not this server's: the message is one line saying what to do. */
export class SchemaNotCurrentError extends Error {}

/**
 * Opens the persistence at `location`. `migrateFirst` applies missing migrations (PGlite: its
 * directory belongs to this one process); otherwise a schema behind or ahead of this server's is
 * refused with SchemaNotCurrentError.
 */
export async function openPostgresPersistence(location: PostgresLocation, { migrateFirst = false } = {}): Promise<PostgresPersistence> {
  const sql = await openSql(location);
  try {
    if (migrateFirst) await migrate(sql);
    const problem = schemaProblem(await schemaState(sql));
    if (problem) throw new SchemaNotCurrentError(problem);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return new PostgresPersistence(sql);
}
