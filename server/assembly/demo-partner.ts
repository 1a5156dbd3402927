/**
 * The demo partner `npm start` makes in a sandbox: a dashboard account with a sign-in printed in the
 * banner, and a key stored like any made in the dashboard (so it is listed there, and revoking it
 * there refuses it). The first start on a store makes both and keeps them in it
 * (AccountStore.claimDemoCredentials); every later start, and every other instance on the same
 * database, prints the same ones, so a password or key printed by one is never undone by another.
 * What was changed in the dashboard is respected: a revoked or rolled demo key is replaced by a new
 * one, and a password changed there is not printed (nor reset).
 */
import type { Environment } from "../../generated/deployment.js";
import type { DemoCredentialsRow, MemberRow } from "../partners/accounts/account-store.js";
import { hashPassword } from "../partners/accounts/passwords.js";
import { hashApiKey, type Partner } from "../partners/keys/api-keys.js";
import { createKey } from "../partners/keys/key-management.js";
import { newId, randomBase62 } from "../platform/ids.js";
import type { Persistence } from "../store/persistence.js";

export const DEMO_PARTNER: Partner = { id: "demo", name: "Demo partner" };
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_KEY_NAME = "Demo key (npm start)";
/** How long keys of the demo made by earlier versions (one per start) keep working once the kept key is chosen. */
const EARLIER_KEYS_GRACE_MS = 3_600_000;
/**
 * scrypt's cost for the demo password: it is 95 random bits, which no guessing reaches whatever
 * the hash costs, so the start-up does not pay the quarter second a chosen password's hash takes.
 */
const DEMO_PASSWORD_COST = 12;

/** The banner's sign-in of the demo partner: its password, or why it is not printed. */
export type DemoSignIn =
  | { email: string; password: string }
  /** The member's password is not the one kept: it was changed in the dashboard. */
  | { email: string; password: null; reason: "changed" }
  /** The address belongs to a member of another account, whose password is not ours to print. */
  | { email: string; password: null; reason: "taken" };

export interface DemoPartnerAccess {
  apiKey: string;
  /** The key kept before was revoked or rolled in the dashboard, and this start made a new one. */
  keyReplaced: boolean;
  signIn: DemoSignIn;
}

type Stores = Pick<Persistence, "accounts" | "apiKeys">;

/** Whether the kept key is still the demo's: stored, not revoked, and not rolled (a rolled key only runs out its grace period). */
async function keptKeyInForce({ apiKeys }: Stores, kept: DemoCredentialsRow, now: Date): Promise<boolean> {
  const stored = await apiKeys.findKey(hashApiKey(kept.apiKey).toString("hex"), now);
  return stored?.id === kept.keyId && stored.expiresAt === null;
}

/** The demo's credentials kept in the store; the first start makes them, and of starts racing, the first to save wins. */
async function keptCredentials(stores: Stores, environment: Environment, now: Date): Promise<DemoCredentialsRow> {
  const kept = await stores.accounts.findDemoCredentials(DEMO_PARTNER.id);
  if (kept) return kept;
  const password = randomBase62(16);
  const made = await createKey(stores.apiKeys, DEMO_PARTNER, environment, DEMO_KEY_NAME, now);
  const claimed = await stores.accounts.claimDemoCredentials({
    partnerId: DEMO_PARTNER.id,
    password,
    passwordHash: await hashPassword(password, DEMO_PASSWORD_COST),
    keyId: made.stored.id,
    apiKey: made.key,
  });
  if (claimed.keyId === made.stored.id) await adoptEarlierDemo(stores, claimed, environment, now);
  else await stores.apiKeys.revokeKeyById(DEMO_PARTNER.id, made.stored.id);
  return claimed;
}

/**
 * A store written by an earlier version, which set a new password and made a new key at each
 * start: the demo member takes the kept password, and the keys of those starts end an hour later,
 * as each start used to end the one before.
 */
async function adoptEarlierDemo(stores: Stores, kept: DemoCredentialsRow, environment: Environment, now: Date): Promise<void> {
  const member = await stores.accounts.findMemberByEmail(DEMO_EMAIL);
  if (member?.partnerId === DEMO_PARTNER.id) await stores.accounts.setPasswordHash(member.id, kept.passwordHash);
  for (const key of await stores.apiKeys.keysOfPartner(DEMO_PARTNER.id, environment, now))
    if (key.name === DEMO_KEY_NAME && key.expiresAt === null && key.id !== kept.keyId)
      await stores.apiKeys.expireKey(DEMO_PARTNER.id, key.id, new Date(now.getTime() + EARLIER_KEYS_GRACE_MS));
}

/** A new key in place of the kept one, unless another start replaced it first (then that start's key). */
async function replacedKey(stores: Stores, kept: DemoCredentialsRow, environment: Environment, now: Date): Promise<DemoCredentialsRow> {
  const made = await createKey(stores.apiKeys, DEMO_PARTNER, environment, DEMO_KEY_NAME, now);
  const saved = await stores.accounts.replaceDemoKey(DEMO_PARTNER.id, kept.keyId, { keyId: made.stored.id, apiKey: made.key });
  if (saved.keyId !== made.stored.id) await stores.apiKeys.revokeKeyById(DEMO_PARTNER.id, made.stored.id);
  return saved;
}

/** The demo account with the kept password (made if missing), and what the banner may say of its sign-in. */
async function demoSignIn({ accounts }: Stores, kept: DemoCredentialsRow, now: Date): Promise<DemoSignIn> {
  let member = await accounts.findMemberByEmail(DEMO_EMAIL);
  if (!member) {
    const owner: MemberRow = {
      id: newId("mem"),
      partnerId: DEMO_PARTNER.id,
      email: DEMO_EMAIL,
      passwordHash: kept.passwordHash,
      role: "owner",
      createdAt: now,
    };
    // False when another instance starting on the same database made it first, with the same kept password.
    await accounts.createAccount({ ...DEMO_PARTNER, createdAt: now }, owner);
    member = (await accounts.findMemberByEmail(DEMO_EMAIL))!;
  }
  if (member.partnerId !== DEMO_PARTNER.id) return { email: DEMO_EMAIL, password: null, reason: "taken" };
  if (member.passwordHash !== kept.passwordHash) return { email: DEMO_EMAIL, password: null, reason: "changed" };
  return { email: DEMO_EMAIL, password: kept.password };
}

export async function openDemoPartner(persistence: Persistence, environment: Environment, now: Date): Promise<DemoPartnerAccess> {
  let kept = await keptCredentials(persistence, environment, now);
  const keyReplaced = !(await keptKeyInForce(persistence, kept, now));
  if (keyReplaced) kept = await replacedKey(persistence, kept, environment, now);
  return { apiKey: kept.apiKey, keyReplaced, signIn: await demoSignIn(persistence, kept, now) };
}
