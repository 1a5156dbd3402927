/** Where a command finds its database: the settings `npm start` reads (DATABASE_URL, PARTNER_API_DATA_DIR), for the scripts that act on it. */
import { ConfigurationError, parseStorage, type StorageConfig } from "../../server/config.js";
import { postgresAddress } from "../../server/startup/storage-report.js";

/** The storage the environment names; a setting that cannot be used is its one line and exit 2. */
export function storageOrExit(env: NodeJS.ProcessEnv): StorageConfig {
  try {
    return parseStorage(env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    console.error(error.message);
    return process.exit(2);
  }
}

/** The database in words, without the user or password a DATABASE_URL may hold. */
export const databaseInWords = (storage: Exclude<StorageConfig, { kind: "memory" }>) =>
  storage.kind === "postgres" ? `the database at ${postgresAddress(storage.databaseUrl)}` : `the embedded database in ${storage.dataDir}`;
