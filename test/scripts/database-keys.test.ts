/**
 * `npm run keys` on a database: the commands over an ApiKeyStore, and how the script chooses between
 * the partners file and the database. The store here is a minimal one kept in a Map (a seam test of
 * the commands); `npm run keys` against PGlite end to end belongs with the PostgreSQL store's tests.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { hashApiKey, KeyRing } from "../../server/partners/keys/api-keys.js";
import { MemoryApiKeyStore } from "../../server/store/memory/memory-api-key-store.js";
import type { ApiKeyStore, StoredApiKey } from "../../server/partners/keys/api-key-store.js";
import { createStoredKey, revokeStoredKey, storedKeyLines } from "../../scripts/lib/database-keys.js";

/** The memory store's ApiKeyStore, with its rows by hash for the assertions. */
function keyStoreInMemory(): ApiKeyStore & { rows: Map<string, StoredApiKey> } {
  const store = new MemoryApiKeyStore();
  const rows = new Map<string, StoredApiKey>();
  return Object.assign(store, {
    rows,
    addKey: async (key: StoredApiKey) => {
      rows.set(key.hash, key);
      await MemoryApiKeyStore.prototype.addKey.call(store, key);
    },
    revokeKey: async (hash: string) => rows.delete(hash) && (await MemoryApiKeyStore.prototype.revokeKey.call(store, hash)),
  });
}

const keys = (...args: string[]) => spawnSync("node_modules/.bin/tsx", ["scripts/keys.ts", ...args], { encoding: "utf8" });

describe("npm run keys on a database", () => {
  it("creates a key that a KeyRing on that database accepts, storing only its hash and a short hint", async () => {
    const store = keyStoreInMemory();
    const { key, partnerId } = await createStoredKey(store, { partnerName: "Acme Hosting", environment: "sandbox" });
    expect(key).toMatch(/^sk_sandbox_[A-Za-z0-9]{32}$/);
    expect(partnerId).toBe("acme_hosting");
    const [stored] = store.rows.values();
    expect(stored).toMatchObject({ hash: hashApiKey(key).toString("hex"), partnerId, partnerName: "Acme Hosting", environment: "sandbox" });
    expect(stored!.hint).toBe(key.slice(0, "sk_sandbox_".length + 4));
    expect(JSON.stringify([...store.rows.values()])).not.toContain(key);
    expect(await new KeyRing("sandbox", () => store).partnerFor(key)).toEqual({ id: "acme_hosting", name: "Acme Hosting" });
  });

  it("revokes a key so the KeyRing refuses it, and refuses to revoke what is no key or a key it does not hold", async () => {
    const store = keyStoreInMemory();
    const { key } = await createStoredKey(store, { partnerName: "Acme", environment: "production" });
    await revokeStoredKey(store, key);
    expect(await new KeyRing("production", () => store).partnerFor(key)).toBeNull();
    await expect(revokeStoredKey(store, key)).rejects.toThrow("the database holds no such key");
    await expect(revokeStoredKey(store, "password123")).rejects.toThrow("not an API key (sk_sandbox_... or sk_live_...)");
  });

  it("lists each partner's keys per environment by their hints, never the keys", async () => {
    const store = keyStoreInMemory();
    const first = await createStoredKey(store, { partnerName: "Zeta", environment: "sandbox" });
    const second = await createStoredKey(store, { partnerName: "Acme", environment: "sandbox" });
    const third = await createStoredKey(store, { partnerName: "Acme", environment: "sandbox" });
    const hint = (key: string) => `${key.slice(0, 15)}...${key.slice(-4)} (Created with npm run keys)`;
    expect(await storedKeyLines(store)).toEqual([
      `acme\tsandbox\t2 key(s)\tAcme\t${hint(second.key)} ${hint(third.key)}`,
      `zeta\tsandbox\t1 key(s)\tZeta\t${hint(first.key)}`,
    ]);
  });

  it("refuses --config while DATABASE_URL or PARTNER_API_DATA_DIR chooses the database, and both set, before touching either", () => {
    const withFile = spawnSync("node_modules/.bin/tsx", ["scripts/keys.ts", "list", "--config", "/nonexistent.json"], {
      encoding: "utf8",
      env: { ...process.env, PARTNER_API_DATA_DIR: "/nonexistent-data" },
    });
    expect(withFile.status).toBe(2);
    expect(withFile.stderr).toMatch(/^--config names a partners file, but DATABASE_URL or PARTNER_API_DATA_DIR is set/);
    const both = spawnSync("node_modules/.bin/tsx", ["scripts/keys.ts", "list"], {
      encoding: "utf8",
      env: { ...process.env, PARTNER_API_DATA_DIR: "/nonexistent-data", DATABASE_URL: "postgres://127.0.0.1:1/p" },
    });
    expect(both.status).toBe(2);
    expect(both.stderr.trim()).toBe(
      "configuration: DATABASE_URL and PARTNER_API_DATA_DIR are both set: choose PostgreSQL (DATABASE_URL) or the embedded one (PARTNER_API_DATA_DIR)",
    );
    expect(keys("rotate").status).toBe(2);
  });
});
