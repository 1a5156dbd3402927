/**
 * `npm run keys` on a database (DATABASE_URL or PARTNER_API_DATA_DIR set): keys go to the
 * persistence's ApiKeyStore, which every instance on that database asks on every request. Each
 * command answers what to print; scripts/keys.ts opens and closes the store.
 */
import type { Environment } from "../../generated/deployment.js";
import { environmentOfKey, generateApiKey, hashApiKey, KEY_PREFIX } from "../../server/auth/api-keys.js";
import type { ApiKeyStore } from "../../server/store/persistence.js";

/** A command that cannot be carried out; the message says why, in one line. */
export class KeyCommandError extends Error {}

/** A partner's id from its name, as the partners file derives it: `Acme Hosting` is `acme_hosting`. */
export const partnerIdOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "_");

/** Characters after the prefix kept as the key's hint: enough to tell keys apart, far too few to use one. */
const HINT_CHARACTERS = 4;

export async function createStoredKey(
  keys: ApiKeyStore,
  { partnerName, environment, now = new Date() }: { partnerName: string; environment: Environment; now?: Date },
): Promise<{ key: string; partnerId: string }> {
  const key = generateApiKey(environment);
  const partnerId = partnerIdOf(partnerName);
  await keys.addKey({
    hash: hashApiKey(key).toString("hex"),
    partnerId,
    partnerName,
    environment,
    createdAt: now,
    hint: key.slice(0, KEY_PREFIX[environment].length + HINT_CHARACTERS),
  });
  return { key, partnerId };
}

/** Revokes the key; refuses (KeyCommandError) a value that is no key, or a key the database does not hold. */
export async function revokeStoredKey(keys: ApiKeyStore, key: string): Promise<void> {
  if (!environmentOfKey(key)) throw new KeyCommandError("not an API key (sk_sandbox_... or sk_live_...)");
  if (!(await keys.revokeKey(hashApiKey(key).toString("hex")))) throw new KeyCommandError("the database holds no such key");
}

/** One line per partner and environment, as `list` prints the partners file's, with the hints of its keys. */
export async function storedKeyLines(keys: ApiKeyStore): Promise<string[]> {
  const lines: string[] = [];
  for (const environment of ["sandbox", "production"] as const) {
    const byPartner = new Map<string, { name: string; hints: string[] }>();
    for (const stored of await keys.keysOf(environment)) {
      const partner = byPartner.get(stored.partnerId) ?? { name: stored.partnerName, hints: [] };
      partner.hints.push(`${stored.hint}...`);
      byPartner.set(stored.partnerId, partner);
    }
    for (const [id, { name, hints }] of [...byPartner].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`${id}\t${environment}\t${hints.length} key(s)\t${name}\t${hints.join(" ")}`);
  }
  return lines;
}
