/**
 * `npm run keys` on a database (DATABASE_URL or PARTNER_API_DATA_DIR set): keys go to the
 * persistence's ApiKeyStore, which every instance on that database asks on every request. Each
 * command answers what to print; scripts/keys.ts opens and closes the store.
 */
import type { Environment } from "../../generated/deployment.js";
import { environmentOfKey, hashApiKey } from "../../server/partners/keys/api-keys.js";
import { createKey, keyNameProblem } from "../../server/partners/keys/key-management.js";
import type { PartnerAccountRow } from "../../server/partners/accounts/account-store.js";
import type { ApiKeyStore } from "../../server/partners/keys/api-key-store.js";

/** A command that cannot be carried out; the message says why, in one line. */
export class KeyCommandError extends Error {}

/** A partner's id from its name, as the partners file derives it: `Acme Hosting` is `acme_hosting`. */
export const partnerIdOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "_");

export async function createStoredKey(
  keys: ApiKeyStore,
  {
    partnerName,
    environment,
    name,
    account,
    now = new Date(),
  }: {
    partnerName: string;
    environment: Environment;
    name?: string;
    /** The dashboard account `partnerName` names by its id, if it does: the key is that account's. */
    account?: PartnerAccountRow | undefined;
    now?: Date;
  },
): Promise<{ key: string; partnerId: string }> {
  const partner = account ? { id: account.id, name: account.name } : { id: partnerIdOf(partnerName), name: partnerName };
  const problem = name === undefined ? null : keyNameProblem(name);
  if (problem) throw new KeyCommandError(`--name: ${problem}`);
  const { key } = await createKey(keys, partner, environment, name ?? "Created with npm run keys", now);
  return { key, partnerId: partner.id };
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
      partner.hints.push(`${stored.hint}...${stored.lastFour} (${stored.name})`);
      byPartner.set(stored.partnerId, partner);
    }
    for (const [id, { name, hints }] of [...byPartner].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`${id}\t${environment}\t${hints.length} key(s)\t${name}\t${hints.join(" ")}`);
  }
  return lines;
}
