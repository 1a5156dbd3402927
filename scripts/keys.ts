/**
 * `npm run keys -- create --partner NAME [--env sandbox|production] [--name KEY_NAME] [--config FILE]`:
 * creates an API key, prints it once and stores only its hash. On a database, NAME may be the id
 * of a dashboard account (`ptn_...`, shown on its Settings page): the key is that account's and
 * shows in its dashboard under KEY_NAME. `npm run keys -- revoke --key KEY [--config FILE]`,
 * `npm run keys -- list [--config FILE]`.
 *
 * Where keys go: the partners file the server follows (`--config`, default partner-api.config.json);
 * or, with DATABASE_URL or PARTNER_API_DATA_DIR set as for `npm start`, the database, which every
 * instance on it asks on every request. Each command says which it used. A database is one
 * environment's: `--env` defaults to PARTNER_API_ENVIRONMENT there, and another is refused.
 */
import { parseArgs } from "node:util";
import type { Environment } from "../generated/deployment.js";
import { environmentOfKey, generateApiKey, hashApiKey } from "../server/partners/keys/api-keys.js";
import { PartnersFileError, readPartnersFile, writePartnersFile, type PartnersFile } from "../server/partners/keys/partners-file.js";
import { DEFAULT_PARTNERS_FILE, type StorageConfig } from "../server/assembly/config.js";
import { openPersistence } from "../server/assembly/open-persistence.js";
import { databaseInWords, environmentOrExit, storageOrExit } from "./lib/storage-setting.js";
import { createStoredKey, KeyCommandError, partnerIdOf, revokeStoredKey, storedKeyLines } from "./lib/database-keys.js";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    partner: { type: "string" },
    env: { type: "string" },
    config: { type: "string" },
    key: { type: "string" },
    name: { type: "string" },
  },
});

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run keys -- create --partner NAME|ACCOUNT_ID [--env sandbox|production] [--name KEY_NAME] [--config FILE]\n       npm run keys -- revoke --key KEY [--config FILE]\n       npm run keys -- list [--config FILE]\nWith DATABASE_URL or PARTNER_API_DATA_DIR set, keys are kept in that database instead of a file (no --config).`,
  );
  process.exit(2);
}

const command = positionals[0];
if (command !== "create" && command !== "revoke" && command !== "list") usage(`unknown command ${command ?? ""}`);
const storage = storageOrExit(process.env);
// A database is one environment's (docs/persistence.md): its keys are that environment's, as `npm start` would serve it.
const environment = (values.env ?? (storage.kind === "memory" ? "sandbox" : environmentOrExit(process.env))) as Environment;
if (environment !== "sandbox" && environment !== "production") usage("--env must be sandbox or production");

if (storage.kind === "memory") inPartnersFile(values.config ?? DEFAULT_PARTNERS_FILE);
else {
  if (values.config !== undefined)
    usage(
      "--config names a partners file, but DATABASE_URL or PARTNER_API_DATA_DIR is set: keys go to the database (unset it to use the file)",
    );
  await inDatabase(storage);
}

/** The database's keys: the ApiKeyStore of the persistence `npm start` would open with the same settings. */
async function inDatabase(storage: Exclude<StorageConfig, { kind: "memory" }>): Promise<void> {
  const where = databaseInWords(storage);
  const persistence = await openPersistence(storage, environment).catch((error: unknown) => {
    console.error(`cannot open ${where}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    process.exit(1);
  });
  try {
    const keys = persistence.apiKeys;
    switch (command) {
      case "create": {
        const partnerName = values.partner ?? usage("--partner is required");
        const { key, partnerId } = await createStoredKey(keys, {
          partnerName,
          environment,
          name: values.name,
          account: await persistence.accounts.findPartner(partnerName),
        });
        console.log(`Created a ${environment} key for partner ${partnerName} (${partnerId}) in ${where}. It is shown once:\n${key}`);
        break;
      }
      case "revoke":
        await revokeStoredKey(keys, values.key ?? usage("--key is required"));
        console.log(`Revoked the key in ${where}; every instance on it refuses the key from its next request on.`);
        break;
      case "list":
        console.log(`Keys in ${where}:`);
        for (const line of await storedKeyLines(keys)) console.log(line);
        break;
    }
  } catch (error) {
    if (!(error instanceof KeyCommandError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await persistence.close();
  }
}

/** The partners file's keys, which a server reading that file follows. */
function inPartnersFile(file: string): void {
  const partners = readOrExit(file);
  // Atomic (a complete new file renamed over the old one): a running server reads the old or the new.
  const save = () => writePartnersFile(file, partners);
  switch (command) {
    case "create": {
      const name = values.partner ?? usage("--partner is required");
      const id = partnerIdOf(name);
      let entry = partners.partners.find((p) => p.id === id && p.environment === environment);
      if (!entry) partners.partners.push((entry = { id, name, environment, key_hashes: [] }));
      const key = generateApiKey(environment);
      entry.key_hashes.push(hashApiKey(key).toString("hex"));
      save();
      console.log(`Created a ${environment} key for partner ${name} (${id}) in ${file}. It is shown once:\n${key}`);
      break;
    }
    case "revoke": {
      const key = values.key ?? usage("--key is required");
      if (!environmentOfKey(key)) usage("not an API key (sk_sandbox_... or sk_live_...)");
      const hash = hashApiKey(key).toString("hex");
      const owner = partners.partners.find((p) => p.key_hashes.includes(hash)) ?? usage("no partner in this file has that key");
      owner.key_hashes = owner.key_hashes.filter((h) => h !== hash);
      save();
      console.log(`Revoked the key of ${owner.name} in ${file}; a running server refuses it from its next request on.`);
      break;
    }
    case "list":
      for (const p of partners.partners) console.log(`${p.id}\t${p.environment}\t${p.key_hashes.length} key(s)\t${p.name}`);
      break;
  }
}

/** The file as it is; one that cannot be used is named in one line, and nothing is written. */
function readOrExit(path: string): PartnersFile {
  try {
    return readPartnersFile(path);
  } catch (error) {
    if (!(error instanceof PartnersFileError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
