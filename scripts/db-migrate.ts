/**
 * `npm run db:migrate`: applies the schema migrations the database lacks, for the database
 * `npm start` would open with the same settings (DATABASE_URL, or PARTNER_API_DATA_DIR), and says
 * what it applied. Safe to run from several places at once: migrations are taken under one lock.
 */
import { migrate, openSql } from "../server/store/postgres/index.js";
import { databaseInWords, storageOrExit } from "./lib/storage-setting.js";

const storage = storageOrExit(process.env);
if (storage.kind === "memory") {
  console.error(
    "npm run db:migrate: set DATABASE_URL (a PostgreSQL server) or PARTNER_API_DATA_DIR (an embedded one); memory needs no schema",
  );
  process.exit(2);
}

const where = databaseInWords(storage);
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
