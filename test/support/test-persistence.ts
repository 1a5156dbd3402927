/**
 * The persistence the API tests run on, chosen by PARTNER_API_TEST_STORE: `memory` (the default),
 * `pglite` (the PostgreSQL store on PGlite, in this process; what `npm test` runs the suite on a
 * second time) or `postgres` (the PostgreSQL store on the server PARTNER_API_TEST_DATABASE_URL names, a database of
 * its own per test worker; `npm run test:postgres`). Each test starts on an empty one.
 */
import { createDatabase } from "../../scripts/lib/fresh-database.js";
import { MemoryPersistence } from "../../server/store/memory/memory-persistence.js";
import type { Persistence } from "../../server/store/persistence.js";
import { migrate, openSql, PostgresPersistence, type PostgresLocation } from "../../server/store/postgres/index.js";

export type TestStore = "memory" | "pglite" | "postgres";

export const testStore = (): TestStore => {
  const store = process.env.PARTNER_API_TEST_STORE ?? "memory";
  if (store !== "memory" && store !== "pglite" && store !== "postgres") throw new Error(`PARTNER_API_TEST_STORE: unknown store ${store}`);
  return store;
};

/** Every table of the schema but the migrations' own, emptied between tests: much faster than a new database. */
async function emptyingStatement(persistence: PostgresPersistence): Promise<string> {
  const tables = await persistence.sql.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY 1",
  );
  return `TRUNCATE ${tables.map(({ name }) => `"${name}"`).join(", ")} RESTART IDENTITY CASCADE`;
}

/** A database of this test worker's own on the server PARTNER_API_TEST_DATABASE_URL names: workers run at once. */
async function workerDatabase(): Promise<PostgresLocation> {
  const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
  if (!serverUrl)
    throw new Error("PARTNER_API_TEST_STORE=postgres needs PARTNER_API_TEST_DATABASE_URL (npm run test:postgres starts a server)");
  return { databaseUrl: await createDatabase(serverUrl, "partner_api_test") };
}

let shared: Promise<{ persistence: PostgresPersistence; emptyEveryTable: string }> | undefined;

/** One PostgreSQL persistence per test worker, migrated once. */
function sharedPostgres(store: "pglite" | "postgres") {
  shared ??= (async () => {
    const sql = await openSql(store === "pglite" ? { inMemory: true } : await workerDatabase());
    // Stamped sandbox, but never checked: the tests build apps of either environment on this persistence directly.
    await migrate(sql, "sandbox");
    const persistence = new PostgresPersistence(sql);
    return { persistence, emptyEveryTable: await emptyingStatement(persistence) };
  })();
  return shared;
}

/** An empty persistence of the chosen store, or of `only` for a file that needs that one. */
export async function emptyTestPersistence(only?: TestStore): Promise<Persistence> {
  const store = only ?? testStore();
  if (store === "memory") return new MemoryPersistence();
  const { persistence, emptyEveryTable } = await sharedPostgres(store);
  await persistence.sql.exec(emptyEveryTable);
  return persistence;
}
