/**
 * Where a command finds its database, and for which environment: the settings `npm start` reads
 * (DATABASE_URL, PARTNER_API_DATA_DIR, PARTNER_API_ENVIRONMENT), for the scripts that act on it.
 */
import type { Environment } from "../../generated/deployment.js";
import { ConfigurationError, parseEnvironment, parseStorage, type StorageConfig } from "../../server/assembly/config.js";
import { postgresAddress } from "../../server/assembly/storage-report.js";

/** What `parse` reads of the settings; a setting that cannot be used is its one line and exit 2. */
function settingOrExit<T>(parse: (env: NodeJS.ProcessEnv) => T, env: NodeJS.ProcessEnv): T {
  try {
    return parse(env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    console.error(error.message);
    return process.exit(2);
  }
}

/** The storage the settings name. */
export const storageOrExit = (env: NodeJS.ProcessEnv): StorageConfig => settingOrExit(parseStorage, env);

/** The environment the settings name (PARTNER_API_ENVIRONMENT, sandbox when unset). */
export const environmentOrExit = (env: NodeJS.ProcessEnv): Environment => settingOrExit(parseEnvironment, env);

/** The database in words, without the user or password a DATABASE_URL may hold. */
export const databaseInWords = (storage: Exclude<StorageConfig, { kind: "memory" }>) =>
  storage.kind === "postgres" ? `the database at ${postgresAddress(storage.databaseUrl)}` : `the embedded database in ${storage.dataDir}`;
