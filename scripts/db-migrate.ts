/**
 * `npm run db:migrate`: applies the schema migrations the database lacks, for the database
 * `npm start` would open with the same settings (DATABASE_URL, or PARTNER_API_DATA_DIR), and says
 * what it applied. Safe to run from several places at once: migrations are taken under one lock.
 */
import { ConfigurationError, parseStorage, type StorageConfig } from "../server/config.js";
import { postgresAddress } from "../server/startup/storage-report.js";
import { migrate, openSql } from "../server/store/postgres/index.js";

let storage: StorageConfig;
try {
  storage = parseStorage(process.env);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(error.message);
  process.exit(2);
}
if (storage.kind === "memory") {
  console.error(
    "npm run db:migrate: set DATABASE_URL (a PostgreSQL server) or PARTNER_API_DATA_DIR (an embedded one); memory needs no schema",
  );
  process.exit(2);
}

const where =
  storage.kind === "postgres" ? `the database at ${postgresAddress(storage.databaseUrl)}` : `the embedded database in ${storage.dataDir}`;
const sql = await openSql(storage.kind === "postgres" ? { databaseUrl: storage.databaseUrl, poolSize: 1 } : { dataDir: storage.dataDir });
try {
  const applied = await migrate(sql);
  console.log(applied.length === 0 ? `${where} is up to date.` : `Applied to ${where}: ${applied.join(", ")}.`);
} catch (error) {
  console.error(`cannot migrate ${where}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
