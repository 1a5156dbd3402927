import type { Environment } from "../../../generated/deployment.js";
import type { Scope } from "./key-grant.js";
import type { KeyRestrictions } from "../../domain/access/key-restrictions.js";

/** A partner's API key as stored: only its SHA-256 hash. */
export interface StoredApiKey {
  /** Names the key in the dashboard; never derived from the key. */
  id: string;
  /** SHA-256 of the key, hex. */
  hash: string;
  partnerId: string;
  partnerName: string;
  environment: Environment;
  /** The descriptive name given at creation ("Production web app"). */
  name: string;
  createdAt: Date;
  /** The first characters of the key, to tell keys apart in listings (never enough to use it). */
  hint: string;
  /** The key's last four characters, as listings show them. */
  lastFour: string;
  /** When the key last authenticated a request, to the minute; null: never. */
  lastUsedAt: Date | null;
  /** When the key stops being accepted (its expiry, or a rolled key's grace end); null: until it is revoked. */
  expiresAt: Date | null;
  /** What the key may do (server/partners/keys/key-grant.ts); null: everything its partner may (a full key). */
  scopes: Scope[] | null;
  /** Where it may do it; null: anywhere its scopes reach. Only a key with scopes has restrictions. */
  restrictions: KeyRestrictions | null;
}

/**
 * Partners' API keys kept in the store every instance asks on every request: a key revoked, or
 * past the end of its grace period, is refused by every instance on its next request.
 */
export interface ApiKeyStore {
  /** The key with this hash, unless it is unknown, revoked, or expired by `now`. */
  findKey(hash: string, now: Date): Promise<StoredApiKey | undefined>;
  addKey(key: StoredApiKey): Promise<void>;
  /** Answers whether a key was revoked. */
  revokeKey(hash: string): Promise<boolean>;
  /** Every key of the environment, expired or not, oldest first (`npm run keys -- list`). */
  keysOf(environment: Environment): Promise<StoredApiKey[]>;
  /** The partner's keys of the environment still accepted at `now`, oldest first. */
  keysOfPartner(partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]>;
  /** Revokes the partner's key by its id; answers whether there was one. */
  revokeKeyById(partnerId: string, id: string): Promise<boolean>;
  /** Ends the partner's key at `at` unless it already ends sooner (a roll's grace period); answers whether there was one. */
  expireKey(partnerId: string, id: string, at: Date): Promise<boolean>;
  /** Records that the key authenticated a request at `at`. */
  touchKey(hash: string, at: Date): Promise<void>;
  /** Forgets keys whose grace period ended by `now`. */
  deleteExpiredKeys(now: Date): Promise<number>;
}
