/**
 * The schema as versioned SQL files (migrations/NNNN_name.sql), applied in name order by umzug,
 * which records each applied one in the `schema_migrations` table. `npm run db:migrate` applies
 * what a database lacks; a server refuses to start on a database whose schema is not the one it
 * was built for (schemaProblem).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Umzug, type UmzugStorage } from "umzug";
import { type DbRow, decodeComputed } from "../../../generated/db-rows.js";
import type { Environment } from "../../../generated/deployment.js";
import { type StampOptions, stampEnvironment } from "./environment-stamp.js";
import type { Sql } from "./sql-client.js";

const MIGRATIONS_DIRECTORY = fileURLToPath(new URL("./migrations/", import.meta.url));

/** The migrations this server was built with, in the order they apply. */
export function knownMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIRECTORY)
    .filter((file) => file.endsWith(".sql"))
    .sort();
}

/** Any number: every instance migrating the same database takes this one lock first. */
const MIGRATION_LOCK = 7_264_553_811;

/** schema_migrations is umzug's, created here rather than by a migration: generated/db-rows.ts does not have it. */
const migrationName = (row: DbRow) => decodeComputed(row, { name: "string" }, "schema_migrations").name;

const storage: UmzugStorage<Sql> = {
  async executed({ context }) {
    await context.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    return (await context.query("SELECT name FROM schema_migrations ORDER BY name")).map(migrationName);
  },
  async logMigration({ name, context }) {
    await context.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
  },
  async unlogMigration({ name, context }) {
    await context.query("DELETE FROM schema_migrations WHERE name = $1", [name]);
  },
};

const migrator = (sql: Sql) =>
  new Umzug<Sql>({
    migrations: knownMigrations().map((file) => ({
      name: file,
      up: ({ context }) => context.exec(readFileSync(`${MIGRATIONS_DIRECTORY}${file}`, "utf8")),
    })),
    context: sql,
    storage,
    logger: undefined,
  });

/**
 * Applies the migrations the database lacks and stamps it for `environment` (environment-stamp.ts),
 * all in one transaction under an advisory lock: two instances migrating at once apply each once,
 * and a failing migration, or a database of the other environment (EnvironmentMismatchError),
 * leaves the schema as it was. Returns the names applied.
 */
export async function migrate(sql: Sql, environment: Environment, options: StampOptions = {}): Promise<string[]> {
  // READ COMMITTED: what the migrations table holds is read after the lock is granted, so the
  // instance that waited sees what the one before it applied (a serializable snapshot would not).
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const applied = (await migrator(tx).up()).map((migration) => migration.name);
    await stampEnvironment(tx, environment, options);
    return applied;
  }, "read committed");
}

export interface SchemaState {
  applied: string[];
  /** Known to this server, not applied to the database. */
  pending: string[];
  /** Applied to the database, unknown to this server (a newer version migrated it). */
  unknown: string[];
}

export async function schemaState(sql: Sql): Promise<SchemaState> {
  const [table] = await sql.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS found");
  const applied = decodeComputed(table!, { found: "boolean" }).found
    ? (await sql.query("SELECT name FROM schema_migrations ORDER BY name")).map(migrationName)
    : [];
  const known = knownMigrations();
  return {
    applied,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  };
}

/** One line saying why this server cannot run on the database, or null when the schema is its own. */
export function schemaProblem({ pending, unknown }: SchemaState): string | null {
  if (unknown.length > 0)
    return `the database schema is ahead of this server, migrated by a newer version (${unknown.join(", ")}): run that version, or this one on a database of its own`;
  if (pending.length > 0)
    return `the database schema is behind this server (${pending.length} migration(s) to apply): run npm run db:migrate`;
  return null;
}
