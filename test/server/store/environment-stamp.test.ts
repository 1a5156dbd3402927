/**
 * One database per environment (server/store/postgres/environment-stamp.ts), on PGlite and, when
 * PARTNER_API_TEST_DATABASE_URL is set, a PostgreSQL server: a database is stamped with the
 * environment it was migrated for, and the other environment's deployment is refused before it
 * reads or writes anything. What a start-up prints then is in test/server/assembly/data-directory.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDatabase, dropDatabase } from "../../../scripts/lib/fresh-database.js";
import {
  EnvironmentMismatchError,
  migrate,
  openPostgresPersistence,
  openSql,
  type PostgresLocation,
  PostgresPersistence,
  schemaState,
  stampedEnvironment,
} from "../../../server/store/postgres/index.js";
import { knownMigrations } from "../../../server/store/postgres/migrations.js";

interface FreshDatabase {
  location: PostgresLocation;
  drop(): Promise<void>;
}

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
const DATABASES: Array<[string, () => Promise<FreshDatabase>]> = [
  [
    "PGlite",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "environment-stamp-"));
      return { location: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  ],
  ...(serverUrl
    ? [
        [
          "a PostgreSQL server",
          async () => {
            const databaseUrl = await createDatabase(serverUrl, "partner_api_stamp");
            return { location: { databaseUrl, poolSize: 2 }, drop: () => dropDatabase(serverUrl, databaseUrl) };
          },
        ] as [string, () => Promise<FreshDatabase>],
      ]
    : []),
];

/** Runs `use` on a connection of its own to the database, closed afterwards (PGlite: one process at a time). */
async function withSql<T>(database: FreshDatabase, use: (sql: Awaited<ReturnType<typeof openSql>>) => Promise<T>): Promise<T> {
  const sql = await openSql(database.location);
  try {
    return await use(sql);
  } finally {
    await sql.close();
  }
}

const SANDBOX_ONLY =
  "the database is the sandbox deployment's, not production's (PARTNER_API_ENVIRONMENT): each environment needs a database of its own";

for (const [name, fresh] of DATABASES) {
  describe(`a database of one environment, on ${name}`, () => {
    it("is stamped by its first migration; the other environment is refused at migration and at opening, and nothing changes", async () => {
      const database = await fresh();
      try {
        await withSql(database, async (sql) => {
          expect(await migrate(sql, "sandbox")).toEqual(knownMigrations());
          expect(await stampedEnvironment(sql)).toBe("sandbox");
          const refused = migrate(sql, "production");
          await expect(refused).rejects.toThrow(EnvironmentMismatchError);
          await expect(refused).rejects.toThrow(SANDBOX_ONLY);
          expect(await stampedEnvironment(sql)).toBe("sandbox");
          expect(await migrate(sql, "sandbox")).toEqual([]);
        });
        const production = openPostgresPersistence(database.location, { environment: "production" });
        await expect(production).rejects.toThrow(EnvironmentMismatchError);
        await expect(production).rejects.toThrow(SANDBOX_ONLY);
        if ("dataDir" in database.location)
          await expect(openPostgresPersistence(database.location, { environment: "production", migrateFirst: true })).rejects.toThrow(
            SANDBOX_ONLY,
          );
        const sandbox = await openPostgresPersistence(database.location, { environment: "sandbox" });
        await sandbox.close();
      } finally {
        await database.drop();
      }
    });

    it("that served both environments before the stamp is refused until told which to keep, then holds none of the other's rows", async () => {
      const database = await fresh();
      try {
        await withSql(database, async (sql) => {
          await migrate(sql, "sandbox");
          // What a database migrated before the stamp existed, and shared by both deployments, looks like.
          await sql.exec("DELETE FROM deployment_environment");
          const persistence = new PostgresPersistence(sql);
          await persistence.framingOrigins.setOrigins("acme", "sandbox", ["https://sandbox.acme.test"]);
          await persistence.framingOrigins.setOrigins("acme", "production", ["https://acme.test"]);
          await persistence.branding.setAccentColour("acme", "production", "#1f4fd1", new Date());

          const mixed = migrate(sql, "sandbox");
          await expect(mixed).rejects.toThrow(EnvironmentMismatchError);
          await expect(mixed).rejects.toThrow(
            "the database holds production data (framing_origins, embed_branding) besides sandbox data: each environment needs a database of its own. Keep this one for sandbox with npm run db:migrate -- --forget-other-environment",
          );
          expect(await stampedEnvironment(sql)).toBeNull();
          expect(await persistence.framingOrigins.originsOf("acme", "production")).toEqual(["https://acme.test"]);
          expect((await schemaState(sql)).pending).toEqual([]);
        });
        await expect(openPostgresPersistence(database.location, { environment: "sandbox" })).rejects.toThrow(
          "the database has no environment yet: run npm run db:migrate with PARTNER_API_ENVIRONMENT=sandbox first",
        );
        await withSql(database, async (sql) => {
          await migrate(sql, "sandbox", { forgetOtherEnvironment: true });
          expect(await stampedEnvironment(sql)).toBe("sandbox");
          const persistence = new PostgresPersistence(sql);
          expect(await persistence.framingOrigins.originsOf("acme", "production")).toEqual([]);
          expect((await persistence.branding.brandingOf("acme", "production")).accentColour).toBeNull();
          expect(await persistence.framingOrigins.originsOf("acme", "sandbox")).toEqual(["https://sandbox.acme.test"]);
        });
      } finally {
        await database.drop();
      }
    });
  });
}
