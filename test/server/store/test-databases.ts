/**
 * The PostgreSQL persistences the store suites run against: PGlite in memory always, and a fresh
 * database on the server PARTNER_API_TEST_DATABASE_URL names when it is set (`npm run test:postgres`, CI).
 */
import { dropDatabase, freshDatabase } from "../../../scripts/lib/fresh-database.js";
import { openPostgresPersistence, type PostgresPersistence } from "../../../server/store/postgres/index.js";

export interface TestDatabase {
  name: string;
  /** A server takes several connections at once, where PGlite has one: only there do transactions overlap. */
  concurrentConnections: boolean;
  open(): Promise<{ persistence: PostgresPersistence; databaseUrl: string | null; drop(): Promise<void> }>;
}

/** Creates a database of its own on the server, migrated; dropped again by `drop`. */
async function freshServerDatabase(serverUrl: string) {
  const databaseUrl = await freshDatabase(serverUrl, "partner_api_test");
  const persistence = await openPostgresPersistence({ databaseUrl }, { environment: "sandbox" });
  return {
    persistence,
    databaseUrl,
    async drop() {
      await persistence.close();
      await dropDatabase(serverUrl, databaseUrl);
    },
  };
}

export const TEST_DATABASES: TestDatabase[] = [
  {
    name: "PGlite",
    concurrentConnections: false,
    async open() {
      const persistence = await openPostgresPersistence({ inMemory: true }, { environment: "sandbox", migrateFirst: true });
      return { persistence, databaseUrl: null, drop: () => persistence.close() };
    },
  },
  ...(process.env.PARTNER_API_TEST_DATABASE_URL
    ? [
        {
          name: "PostgreSQL server",
          concurrentConnections: true,
          open: () => freshServerDatabase(process.env.PARTNER_API_TEST_DATABASE_URL!),
        },
      ]
    : []),
];
