/**
 * The demo partner `npm start` makes in a sandbox without configured partners: a dashboard account
 * with a sign-in printed in the banner, and a key stored like any made in the dashboard (so it is
 * listed there, and revoking it there refuses it). Each start sets a new password and makes a new
 * key; the keys of earlier starts (on a database that outlives the process) end an hour later, so
 * instances started together keep each other's keys working.
 */
import type { Environment } from "../../generated/deployment.js";
import type { MemberRow } from "../accounts/account-store.js";
import { hashPassword } from "../accounts/passwords.js";
import type { Partner } from "../auth/api-keys.js";
import { createKey } from "../auth/key-management.js";
import { newId, randomBase62 } from "../ids.js";
import type { Persistence } from "../store/persistence.js";

export const DEMO_PARTNER: Partner = { id: "demo", name: "Demo partner" };
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_KEY_NAME = "Demo key (npm start)";
const EARLIER_KEYS_GRACE_MS = 3_600_000;
/**
 * scrypt's cost for the demo password: it is 95 random bits, which no guessing reaches whatever
 * the hash costs, so the start-up does not pay the quarter second a chosen password's hash takes.
 */
const DEMO_PASSWORD_COST = 12;

export interface DemoSignIn {
  email: string;
  password: string;
}

export async function openDemoPartner(
  persistence: Persistence,
  environment: Environment,
  now: Date,
): Promise<{ apiKey: string; signIn: DemoSignIn | null }> {
  const { accounts, apiKeys } = persistence;
  const password = randomBase62(16);
  const passwordHash = await hashPassword(password, DEMO_PASSWORD_COST);
  let signIn: DemoSignIn | null = { email: DEMO_EMAIL, password };
  const existing = await accounts.findMemberByEmail(DEMO_EMAIL);
  if (existing?.partnerId === DEMO_PARTNER.id) await accounts.setPasswordHash(existing.id, passwordHash);
  else if (existing) signIn = null;
  else {
    const owner: MemberRow = {
      id: newId("mem"),
      partnerId: DEMO_PARTNER.id,
      email: DEMO_EMAIL,
      passwordHash,
      role: "owner",
      createdAt: now,
    };
    // Taken meanwhile by another instance starting on the same database: its password is the one printed last.
    if (!(await accounts.createAccount({ ...DEMO_PARTNER, createdAt: now }, owner)))
      await accounts.setPasswordHash((await accounts.findMemberByEmail(DEMO_EMAIL))!.id, passwordHash);
  }
  for (const key of await apiKeys.keysOfPartner(DEMO_PARTNER.id, environment, now))
    if (key.name === DEMO_KEY_NAME && key.expiresAt === null)
      await apiKeys.expireKey(DEMO_PARTNER.id, key.id, new Date(now.getTime() + EARLIER_KEYS_GRACE_MS));
  const { key } = await createKey(apiKeys, DEMO_PARTNER, environment, DEMO_KEY_NAME, now);
  return { apiKey: key, signIn };
}
