/**
 * The PostgreSQL persistences the store suites run against: PGlite in memory always, and a fresh
 * database on the server PARTNER_API_TEST_DATABASE_URL names when it is set (`npm run test:postgres`, CI).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { migrate, openPostgresPersistence, openSql, type PostgresPersistence } from "../../../server/store/postgres/index.js";

export interface TestDatabase {
  name: string;
  /** A server takes several connections at once, where PGlite has one: only there do transactions overlap. */
  concurrentConnections: boolean;
  open(): Promise<{ persistence: PostgresPersistence; databaseUrl: string | null; drop(): Promise<void> }>;
}

/** Creates a database of its own on the server, migrated; dropped again by `drop`. */
async function freshServerDatabase(serverUrl: string) {
  const name = `partner_api_test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const migrator = await openSql({ databaseUrl, poolSize: 1 });
  await migrate(migrator);
  await migrator.close();
  const persistence = await openPostgresPersistence({ databaseUrl });
  return {
    persistence,
    databaseUrl,
    async drop() {
      await persistence.close();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export const TEST_DATABASES: TestDatabase[] = [
  {
    name: "PGlite",
    concurrentConnections: false,
    async open() {
      const persistence = await openPostgresPersistence({ inMemory: true }, { migrateFirst: true });
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
