/**
 * `npm run db:migrate [-- --forget-other-environment]`: applies the schema migrations the database
 * lacks, for the database `npm start` would open with the same settings (DATABASE_URL, or
 * PARTNER_API_DATA_DIR), stamps it with PARTNER_API_ENVIRONMENT's environment and says what it did.
 * A database of the other environment is refused (exit 2) and left as it was. Safe to run from
 * several places at once: migrations are taken under one lock.
 */
import { parseArgs } from "node:util";
import { EnvironmentMismatchError, migrate, openSql } from "../server/store/postgres/index.js";
import { databaseInWords, environmentOrExit, storageOrExit } from "./lib/storage-setting.js";

const { values } = parseArgs({ options: { "forget-other-environment": { type: "boolean", default: false } } });
const storage = storageOrExit(process.env);
const environment = environmentOrExit(process.env);
if (storage.kind === "memory") {
  console.error(
    "npm run db:migrate: set DATABASE_URL (a PostgreSQL server) or PARTNER_API_DATA_DIR (an embedded one); memory needs no schema",
  );
  process.exit(2);
}

const where = databaseInWords(storage);
const sql = await openSql(storage.kind === "postgres" ? { databaseUrl: storage.databaseUrl, poolSize: 1 } : { dataDir: storage.dataDir });
try {
  const applied = await migrate(sql, environment, { forgetOtherEnvironment: values["forget-other-environment"] });
  console.log(
    applied.length === 0
      ? `${where} is up to date, the ${environment} deployment's.`
      : `Applied to ${where}, the ${environment} deployment's: ${applied.join(", ")}.`,
  );
} catch (error) {
  console.error(`cannot migrate ${where}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  process.exitCode = error instanceof EnvironmentMismatchError ? 2 : 1;
} finally {
  await sql.close();
}
