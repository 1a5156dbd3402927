/**
 * `npm run keys -- create --partner NAME [--env sandbox|production] [--config FILE]`: creates an API key,
 * prints it once and stores only its hash in the partners file the server reads.
 * `npm run keys -- revoke --key KEY [--config FILE]`, `npm run keys -- list [--config FILE]`.
 */
import { parseArgs } from "node:util";
import type { Environment } from "../generated/deployment.js";
import { environmentOfKey, generateApiKey, hashApiKey } from "../server/auth/api-keys.js";
import { PartnersFileError, readPartnersFile, writePartnersFile, type PartnersFile } from "../server/auth/partners-file.js";
import { DEFAULT_PARTNERS_FILE } from "../server/config.js";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    partner: { type: "string" },
    env: { type: "string", default: "sandbox" },
    config: { type: "string", default: DEFAULT_PARTNERS_FILE },
    key: { type: "string" },
  },
});
const file = values.config!;
const partners = readOrExit(file);
// Atomic (a complete new file renamed over the old one): a running server reads the old or the new.
const save = () => writePartnersFile(file, partners);

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

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run keys -- create --partner NAME [--env sandbox|production] [--config FILE]\n       npm run keys -- revoke --key KEY [--config FILE]\n       npm run keys -- list [--config FILE]`,
  );
  process.exit(2);
}

switch (positionals[0]) {
  case "create": {
    const name = values.partner ?? usage("--partner is required");
    const environment = values.env as Environment;
    if (environment !== "sandbox" && environment !== "production") usage("--env must be sandbox or production");
    const id = name.toLowerCase().replace(/[^a-z0-9]+/g, "_");
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
    console.log(`Revoked the key of ${owner.name}; a running server refuses it from its next request on.`);
    break;
  }
  case "list":
    for (const p of partners.partners) console.log(`${p.id}\t${p.environment}\t${p.key_hashes.length} key(s)\t${p.name}`);
    break;
  default:
    usage(`unknown command ${positionals[0] ?? ""}`);
}
