/**
 * What the dashboard and `npm run keys` do with stored keys: make one with a name (the key is
 * answered once and only its hash kept), list, revoke, and roll (a new key, the old one accepted
 * for a grace period the caller chooses, at most seven days, then refused). A key may be restricted
 * (server/partners/keys/key-grant.ts); a roll keeps its scopes, restrictions and expiry.
 */
import type { Environment } from "../../../generated/deployment.js";
import { newId } from "../../platform/ids.js";
import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";
import { generateApiKey, hashApiKey, KEY_PREFIX, type Partner } from "./api-keys.js";
import { FULL_GRANT, type KeyGrant } from "./key-grant.js";

/** Characters after the prefix kept as the key's hint: enough to tell keys apart, far too few to use one. */
const HINT_CHARACTERS = 4;
export const MAX_KEY_NAME_LENGTH = 80;
/** The longest grace period a rolled key gets, as Stripe's. */
export const MAX_ROLL_GRACE_SECONDS = 7 * 86_400;

export interface NewKey {
  key: string;
  stored: StoredApiKey;
}

/** A key of the partner, not yet stored: a new one, or `key` where the caller already holds the key to store. */
export function newStoredKey(
  partner: Partner,
  environment: Environment,
  name: string,
  now: Date,
  key: string = generateApiKey(environment),
  grant: KeyGrant = FULL_GRANT,
): NewKey {
  return {
    key,
    stored: {
      id: newId("key"),
      hash: hashApiKey(key).toString("hex"),
      partnerId: partner.id,
      partnerName: partner.name,
      environment,
      name,
      createdAt: now,
      hint: key.slice(0, KEY_PREFIX[environment].length + HINT_CHARACTERS),
      lastFour: key.slice(-4),
      lastUsedAt: null,
      expiresAt: grant.expiresAt,
      scopes: grant.scopes,
      restrictions: grant.restrictions,
    },
  };
}

/** A key's name as given, or why it cannot be one. */
export function keyNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return "Give the key a name that says where it is used, such as “Production web app”.";
  if (trimmed.length > MAX_KEY_NAME_LENGTH) return `A key's name is at most ${MAX_KEY_NAME_LENGTH} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "A key's name cannot hold control characters.";
  return null;
}

/** The partner's keys of this environment, those still accepted and those ending after a roll. */
export function keysOfPartner(keys: ApiKeyStore, partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]> {
  return keys.keysOfPartner(partnerId, environment, now);
}

/** One of the partner's keys, or null: another partner's key reads as an unknown one. */
export async function keyOfPartner(
  keys: ApiKeyStore,
  partnerId: string,
  environment: Environment,
  id: string,
  now: Date,
): Promise<StoredApiKey | null> {
  return (await keysOfPartner(keys, partnerId, environment, now)).find((key) => key.id === id) ?? null;
}

/** Revokes the partner's key at once; false when the partner has no such key. */
export function revokeKey(keys: ApiKeyStore, partnerId: string, id: string): Promise<boolean> {
  return keys.revokeKeyById(partnerId, id);
}

/** Stores a new key; without a grant, a full key that never expires. */
export async function createKey(
  keys: ApiKeyStore,
  partner: Partner,
  environment: Environment,
  name: string,
  now: Date,
  grant: KeyGrant = FULL_GRANT,
): Promise<NewKey> {
  const made = newStoredKey(partner, environment, name.trim(), now, undefined, grant);
  await keys.addKey(made.stored);
  return made;
}

/**
 * Rolls the partner's key: a new key of the same name, stored first, then the old one ends after
 * `graceSeconds` (0: at once). Answers null when the partner has no such key.
 */
export async function rollKey(
  keys: ApiKeyStore,
  partner: Partner,
  environment: Environment,
  id: string,
  graceSeconds: number,
  now: Date,
): Promise<{ made: NewKey; oldExpiresAt: Date } | null> {
  const old = await keyOfPartner(keys, partner.id, environment, id, now);
  if (!old) return null;
  // The new key does the same job: same scopes and restrictions, and no longer than the old one was to live.
  const made = newStoredKey(partner, environment, old.name, now, undefined, {
    scopes: old.scopes,
    restrictions: old.restrictions,
    expiresAt: old.expiresAt,
  });
  await keys.addKey(made.stored);
  const graceEnd = new Date(now.getTime() + Math.min(Math.max(graceSeconds, 0), MAX_ROLL_GRACE_SECONDS) * 1000);
  const oldExpiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
  await keys.expireKey(partner.id, id, oldExpiresAt);
  return { made, oldExpiresAt };
}
