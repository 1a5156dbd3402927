/** API keys: generated once, shown once, stored only as SHA-256 hashes. */
import { hash, timingSafeEqual } from "node:crypto";
import type { Environment } from "../../generated/deployment.js";
import { randomBase62 } from "../ids.js";
import type { ApiKeyStore } from "../store/persistence.js";
import type { FollowedPartnersFile, KeyEntry } from "./followed-partners-file.js";

/** What every key of an environment begins with. */
export const KEY_PREFIX: Record<Environment, string> = { sandbox: "sk_sandbox_", production: "sk_live_" };

export const generateApiKey = (environment: Environment) => KEY_PREFIX[environment] + randomBase62(32);

// One-shot hashing: a Hash object per request showed in CPU profiles (every request is authenticated).
export const hashApiKey = (key: string) => hash("sha256", key, "buffer");

export function environmentOfKey(key: string): Environment | null {
  if (key.startsWith(KEY_PREFIX.sandbox)) return "sandbox";
  if (key.startsWith(KEY_PREFIX.production)) return "production";
  return null;
}

export interface Partner {
  id: string;
  name: string;
}

/** A partner whose keys the ring accepts, with how many keys of each environment it has and where they come from. */
export interface LoadedPartner {
  partner: Partner;
  keys: Record<Environment, number>;
  source: "configuration" | "partners file";
}

/**
 * The keys a deployment accepts: those given in its configuration (PARTNER_API_KEYS, the demo key,
 * tests), fixed for the life of the process; those of the partners file it follows, which may
 * change between any two requests (server/auth/followed-partners-file.ts); and, on a database,
 * those stored there (`npm run keys` with DATABASE_URL or PARTNER_API_DATA_DIR), looked up on every
 * request so a key revoked there is refused by every instance from its next request on. Lookup is
 * by hash, so the time taken depends on the hash, never on how much of a guessed key is right; the
 * stored hash is still compared in constant time.
 */
export class KeyRing {
  private readonly byHash = new Map<string, KeyEntry>();
  private file: FollowedPartnersFile | null = null;

  constructor(
    private readonly environment: Environment,
    /** The database's keys, read at each lookup (tests swap the persistence); null without a database. */
    private readonly stored: () => ApiKeyStore | null = () => null,
  ) {}

  /** Accepts, from now on, the keys the partners file holds at each lookup. */
  follow(file: FollowedPartnersFile): void {
    this.file = file;
  }

  /** Adds a key given in plain text (from configuration); only its hash is kept. */
  addKey(partner: Partner, key: string): void {
    if (environmentOfKey(key) !== this.environment)
      throw new Error(`a ${this.environment} deployment only takes ${KEY_PREFIX[this.environment]} keys`);
    const hash = hashApiKey(key);
    this.byHash.set(hash.toString("hex"), { hash, partner });
  }

  /** Revokes a key of the configuration; keys of the partners file are revoked in the file. */
  revoke(key: string): void {
    this.byHash.delete(hashApiKey(key).toString("hex"));
  }

  /**
   * The partner owning the key, or null for an unknown or revoked key or a key of the other
   * environment. Rejects with StoreUnavailableError while the database cannot be asked (a 503).
   */
  async partnerFor(key: string): Promise<Partner | null> {
    if (environmentOfKey(key) !== this.environment) return null;
    const keyHash = hashApiKey(key);
    const hex = keyHash.toString("hex");
    const entry = this.byHash.get(hex) ?? this.file?.current().get(hex);
    if (entry) return timingSafeEqual(entry.hash, keyHash) ? entry.partner : null;
    const stored = await this.stored()?.findKey(hex);
    if (!stored || stored.environment !== this.environment) return null;
    const storedHash = Buffer.from(stored.hash, "hex");
    return storedHash.length === keyHash.length && timingSafeEqual(storedHash, keyHash)
      ? { id: stored.partnerId, name: stored.partnerName }
      : null;
  }

  /** Every partner with keys in the configuration or the partners file, as they stand now. */
  loaded(): LoadedPartner[] {
    const fromConfiguration = new Map<string, LoadedPartner>();
    for (const { partner } of this.byHash.values()) {
      const loaded = fromConfiguration.get(partner.id) ?? {
        partner,
        keys: { sandbox: 0, production: 0 },
        source: "configuration" as const,
      };
      loaded.keys[this.environment]++;
      fromConfiguration.set(partner.id, loaded);
    }
    this.file?.current();
    const fromFile = (this.file?.partners() ?? []).map(
      ({ partner, keys }): LoadedPartner => ({ partner, keys: { ...keys }, source: "partners file" }),
    );
    return [...fromConfiguration.values(), ...fromFile];
  }
}
