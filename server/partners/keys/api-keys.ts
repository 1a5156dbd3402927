/** API keys: generated once, shown once, stored only as SHA-256 hashes. */
import { hash, timingSafeEqual } from "node:crypto";
import type { Environment } from "../../../generated/deployment.js";
import { randomBase62 } from "../../platform/ids.js";
import type { ApiKeyStore } from "./api-key-store.js";
import type { FollowedPartnersFile, KeyEntry } from "./followed-partners-file.js";
import type { Scope } from "./key-grant.js";
import type { KeyRestrictions } from "../../domain/access/key-restrictions.js";

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

/** Who a key authenticates, the key's name as the request log shows it, and what the key may do. */
export interface KeyHolder {
  partner: Partner;
  keyName: string;
  /** The stored key's id; null for keys of the configuration and the partners file (full keys). */
  keyId: string | null;
  /** Null: a full key. */
  scopes: Scope[] | null;
  restrictions: KeyRestrictions | null;
}

/** Names of keys that were not made in the dashboard, by where they come from. */
export const CONFIGURED_KEY_NAME = "Configured key (PARTNER_API_KEYS or npm start)";
export const PARTNERS_FILE_KEY_NAME = "Partners file key (npm run keys)";

/** How stale a stored key's last use may be: recording every use would be a write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A partner whose keys the ring accepts, with how many keys of each environment it has and where they come from. */
export interface LoadedPartner {
  partner: Partner;
  keys: Record<Environment, number>;
  source: "configuration" | "partners file";
}

/**
 * The keys a deployment accepts: those given in its configuration (PARTNER_API_KEYS, tests), fixed
 * for the life of the process; those of the partners file it follows, which may change between any
 * two requests (server/partners/keys/followed-partners-file.ts); and those of its store (made in the
 * dashboard, or with `npm run keys` on a database), looked up on every request so a key revoked or
 * past its grace period is refused by every instance from its next request on. Lookup is
 * by hash, so the time taken depends on the hash, never on how much of a guessed key is right; the
 * stored hash is still compared in constant time.
 */
export class KeyRing {
  private readonly byHash = new Map<string, KeyEntry>();
  private file: FollowedPartnersFile | null = null;

  constructor(
    private readonly environment: Environment,
    /** The stored keys, read at each lookup (tests swap the persistence); null: none. */
    private readonly stored: () => ApiKeyStore | null = () => null,
    /** The deployment's time, which ends a rolled key's grace period. */
    private readonly now: () => Date = () => new Date(),
    /** Where a failed write of a key's last use is reported; the request it came with goes on. */
    private readonly onTouchFailure: (error: unknown) => void = () => {},
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
    return (await this.holderOf(key))?.partner ?? null;
  }

  /** The partner owning the key with the key's name, or null as for partnerFor; records a stored key's use. */
  async holderOf(key: string): Promise<KeyHolder | null> {
    if (environmentOfKey(key) !== this.environment) return null;
    const keyHash = hashApiKey(key);
    const hex = keyHash.toString("hex");
    const configured = this.byHash.get(hex);
    const entry = configured ?? this.file?.current().get(hex);
    if (entry)
      return timingSafeEqual(entry.hash, keyHash)
        ? {
            partner: entry.partner,
            keyName: configured ? CONFIGURED_KEY_NAME : PARTNERS_FILE_KEY_NAME,
            keyId: null,
            scopes: null,
            restrictions: null,
          }
        : null;
    const store = this.stored();
    const now = this.now();
    const stored = await store?.findKey(hex, now);
    if (!store || !stored || stored.environment !== this.environment) return null;
    const storedHash = Buffer.from(stored.hash, "hex");
    if (storedHash.length !== keyHash.length || !timingSafeEqual(storedHash, keyHash)) return null;
    if (stored.lastUsedAt === null || now.getTime() - stored.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
      store.touchKey(hex, now).catch(this.onTouchFailure);
    return {
      partner: { id: stored.partnerId, name: stored.partnerName },
      keyName: stored.name,
      keyId: stored.id,
      scopes: stored.scopes,
      restrictions: stored.restrictions,
    };
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
