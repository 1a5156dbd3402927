/**
 * The demo partner every sandbox start makes (server/assembly/demo-partner.ts), on each store: its
 * key and password are kept with the data, so every start and every instance on it prints the same
 * ones; what was changed in the dashboard is respected.
 */
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../../server/partners/accounts/passwords.js";
import { hashApiKey } from "../../../server/partners/keys/api-keys.js";
import { createKey } from "../../../server/partners/keys/key-management.js";
import { DEMO_EMAIL, DEMO_KEY_NAME, DEMO_PARTNER, openDemoPartner } from "../../../server/assembly/demo-partner.js";
import type { Persistence } from "../../../server/store/persistence.js";
import { emptyTestPersistence } from "../../support/test-persistence.js";

const NOW = new Date("2026-11-26T10:00:00Z");
const LATER = new Date("2026-11-26T12:00:00Z");
const HOUR = 3_600_000;

/**
 * Each test on an empty store of each kind: the PostgreSQL store on the server
 * PARTNER_API_TEST_DATABASE_URL names (`npm run test:postgres`, where starts race on several
 * connections), else on PGlite; shared by the worker's tests and emptied for each.
 */
const STORES = ["memory", process.env.PARTNER_API_TEST_DATABASE_URL ? "postgres" : "pglite"] as const;

/** Whether the store accepts the key, as authentication asks it. */
const accepted = async (persistence: Persistence, key: string, at = NOW) =>
  (await persistence.apiKeys.findKey(hashApiKey(key).toString("hex"), at)) !== undefined;

const demoKeysInForce = async (persistence: Persistence, at = NOW) =>
  (await persistence.apiKeys.keysOfPartner(DEMO_PARTNER.id, "sandbox", at)).filter((key) => key.expiresAt === null);

describe.each(STORES)("the demo partner on %s", (store) => {
  const openStore = () => emptyTestPersistence(store);

  it("is the same key and password at every start on the same data, with one key", async () => {
    const persistence = await openStore();
    const first = await openDemoPartner(persistence, "sandbox", NOW);
    const second = await openDemoPartner(persistence, "sandbox", LATER);
    expect(first.signIn).toEqual({ email: DEMO_EMAIL, password: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    expect(second).toEqual({ ...first, keyReplaced: false });
    expect(first.keyReplaced).toBe(false);
    expect(await accepted(persistence, first.apiKey, LATER)).toBe(true);
    expect((await demoKeysInForce(persistence, LATER)).map((key) => key.name)).toEqual([DEMO_KEY_NAME]);
    // The password printed signs in: it is the demo member's.
    const member = (await persistence.accounts.findMemberByEmail(DEMO_EMAIL))!;
    expect(member.partnerId).toBe(DEMO_PARTNER.id);
    expect(await verifyPassword(second.signIn.password!, member.passwordHash)).toBe(true);
  });

  it("is the same for instances starting at once on empty data, which leave one demo key in force", async () => {
    const persistence = await openStore();
    const starts = await Promise.all([1, 2, 3].map(() => openDemoPartner(persistence, "sandbox", NOW)));
    expect(new Set(starts.map(({ apiKey }) => apiKey)).size).toBe(1);
    expect(new Set(starts.map(({ signIn }) => signIn.password)).size).toBe(1);
    expect(await demoKeysInForce(persistence)).toHaveLength(1);
    expect(await accepted(persistence, starts[0]!.apiKey)).toBe(true);
  });

  it.each([
    ["revoked", (persistence: Persistence, key: string) => persistence.apiKeys.revokeKey(hashApiKey(key).toString("hex"))],
    [
      "rolled",
      async (persistence: Persistence, key: string) => {
        const id = (await persistence.apiKeys.findKey(hashApiKey(key).toString("hex"), NOW))!.id;
        await persistence.apiKeys.expireKey(DEMO_PARTNER.id, id, new Date(NOW.getTime() + HOUR));
      },
    ],
  ])("makes a new key at the next start when the one shown was %s in the dashboard, and keeps that one", async (_change, change) => {
    const persistence = await openStore();
    const first = await openDemoPartner(persistence, "sandbox", NOW);
    await change(persistence, first.apiKey);
    const second = await openDemoPartner(persistence, "sandbox", NOW);
    expect(second.keyReplaced).toBe(true);
    expect(second.apiKey).not.toBe(first.apiKey);
    expect(await accepted(persistence, second.apiKey)).toBe(true);
    expect(second.signIn).toEqual(first.signIn);
    expect(await openDemoPartner(persistence, "sandbox", NOW)).toEqual({ ...second, keyReplaced: false });
  });

  it("neither prints nor resets a password changed in the dashboard", async () => {
    const persistence = await openStore();
    await openDemoPartner(persistence, "sandbox", NOW);
    const member = (await persistence.accounts.findMemberByEmail(DEMO_EMAIL))!;
    const chosen = await hashPassword("a password of my own", 10);
    await persistence.accounts.setPasswordHash(member.id, chosen);
    expect((await openDemoPartner(persistence, "sandbox", NOW)).signIn).toEqual({ email: DEMO_EMAIL, password: null, reason: "changed" });
    expect((await persistence.accounts.findMemberByEmail(DEMO_EMAIL))!.passwordHash).toBe(chosen);
  });

  it("prints no password for an address another account holds", async () => {
    const persistence = await openStore();
    const owner = { id: "mem_other", partnerId: "ptn_other", email: DEMO_EMAIL, passwordHash: "x", role: "owner" as const, createdAt: NOW };
    await persistence.accounts.createAccount({ id: "ptn_other", name: "Other", createdAt: NOW }, owner);
    const demo = await openDemoPartner(persistence, "sandbox", NOW);
    expect(demo.signIn).toEqual({ email: DEMO_EMAIL, password: null, reason: "taken" });
    expect(await accepted(persistence, demo.apiKey)).toBe(true);
  });

  it("takes over data an earlier version wrote (a new password and key at each start): its password kept, its keys ending in an hour", async () => {
    const persistence = await openStore();
    const earlierHash = await hashPassword("printed by an earlier start", 10);
    const owner = { id: "mem_demo", partnerId: DEMO_PARTNER.id, email: DEMO_EMAIL, passwordHash: earlierHash, role: "owner" as const };
    await persistence.accounts.createAccount({ ...DEMO_PARTNER, createdAt: NOW }, { ...owner, createdAt: NOW });
    const earlier = await createKey(persistence.apiKeys, DEMO_PARTNER, "sandbox", DEMO_KEY_NAME, NOW);
    const demo = await openDemoPartner(persistence, "sandbox", NOW);
    expect(demo.signIn.password).toEqual(expect.any(String));
    expect(await accepted(persistence, earlier.key, new Date(NOW.getTime() + HOUR - 1))).toBe(true);
    expect(await accepted(persistence, earlier.key, new Date(NOW.getTime() + HOUR))).toBe(false);
    expect(await accepted(persistence, demo.apiKey, LATER)).toBe(true);
  });
});
