/**
 * Keys kept in the database (ApiKeyStore): the KeyRing asks the store on every request, so a key
 * added there is accepted and a key revoked there refused from the very next request, by every
 * instance on that database. The store here is a minimal one kept in a Map (a seam test of the
 * KeyRing and of authentication); the PostgreSQL ApiKeyStore is tested on PGlite with the rest of
 * the PostgreSQL store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment } from "../../../../generated/deployment.js";
import { createApp } from "../../../../server/assembly/app.js";
import { generateApiKey, hashApiKey, KeyRing } from "../../../../server/partners/keys/api-keys.js";
import { MemoryApiKeyStore } from "../../../../server/store/memory/memory-api-key-store.js";
import { MemoryPersistence } from "../../../../server/store/memory/memory-persistence.js";
import type { ApiKeyStore, StoredApiKey } from "../../../../server/partners/keys/api-key-store.js";
import { serveOnLoopback, type Listener } from "../../../support/listen.js";
import { RETRY_AFTER_SECONDS, UnavailablePersistence } from "../../../support/unavailable-persistence.js";

/** The memory store's ApiKeyStore, counting its lookups. */
function keyStoreInMemory(): ApiKeyStore & { lookups: number } {
  const keys = new MemoryApiKeyStore();
  const counted = Object.assign(Object.create(keys) as MemoryApiKeyStore, { lookups: 0 });
  counted.findKey = (hash: string, now: Date) => {
    counted.lookups++;
    return keys.findKey(hash, now);
  };
  return counted;
}

const stored = (key: string, environment: Environment, partnerId = "acme"): StoredApiKey => ({
  id: `key_${key.slice(-8)}`,
  name: "Test key",
  lastFour: key.slice(-4),
  lastUsedAt: null,
  expiresAt: null,
  scopes: null,
  restrictions: null,
  hash: hashApiKey(key).toString("hex"),
  partnerId,
  partnerName: "Acme Hosting",
  environment,
  createdAt: new Date("2026-11-22T10:00:00Z"),
  hint: key.slice(0, 15),
});

describe("a KeyRing on a database's keys", () => {
  it("accepts a key stored there and refuses it from the first lookup after it is revoked", async () => {
    const keyStore = keyStoreInMemory();
    const keys = new KeyRing("sandbox", () => keyStore);
    const key = generateApiKey("sandbox");
    expect(await keys.partnerFor(key)).toBeNull();
    await keyStore.addKey(stored(key, "sandbox"));
    expect(await keys.partnerFor(key)).toEqual({ id: "acme", name: "Acme Hosting" });
    await keyStore.revokeKey(hashApiKey(key).toString("hex"));
    expect(await keys.partnerFor(key)).toBeNull();
  });

  it("refuses a stored key of the other environment, and never asks the store about a key that is not of its environment", async () => {
    const keyStore = keyStoreInMemory();
    const keys = new KeyRing("production", () => keyStore);
    const sandboxKey = generateApiKey("sandbox");
    await keyStore.addKey(stored(sandboxKey, "sandbox"));
    expect(await keys.partnerFor(sandboxKey)).toBeNull();
    expect(keyStore.lookups).toBe(0);
    // A row whose environment disagrees with its key's prefix (written by hand) is not trusted either.
    const liveKey = generateApiKey("production");
    await keyStore.addKey(stored(liveKey, "sandbox"));
    expect(await keys.partnerFor(liveKey)).toBeNull();
  });

  it("answers keys of the configuration without asking the store", async () => {
    const keyStore = keyStoreInMemory();
    const keys = new KeyRing("sandbox", () => keyStore);
    const key = generateApiKey("sandbox");
    keys.addKey({ id: "ci", name: "CI" }, key);
    expect(await keys.partnerFor(key)).toEqual({ id: "ci", name: "CI" });
    expect(keyStore.lookups).toBe(0);
  });
});

describe("a server whose persistence keeps keys", () => {
  const keyStore = keyStoreInMemory();
  const persistence = new UnavailablePersistence(new MemoryPersistence(), keyStore);
  const key = generateApiKey("sandbox");
  let listener: Listener;
  beforeAll(async () => {
    const { app } = createApp({ persistence, environment: "sandbox", embedBaseUrl: "http://embed.test", partners: [] });
    listener = await serveOnLoopback(app);
  });
  afterAll(() => listener.close());
  const health = () => fetch(`${listener.url}/api/v1/health`, { headers: { Authorization: `Bearer ${key}` } });

  it("accepts a key added to the database and refuses it on the next request once revoked there", async () => {
    expect((await health()).status).toBe(401);
    await keyStore.addKey(stored(key, "sandbox"));
    expect((await health()).status).toBe(200);
    await keyStore.revokeKey(hashApiKey(key).toString("hex"));
    const refused = await health();
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="partner-api"');
  });

  it("answers 503 with Retry-After, not 401, while the key store cannot be asked", async () => {
    await keyStore.addKey(stored(key, "sandbox"));
    persistence.takeDown("apiKeys");
    const response = await health();
    persistence.bringBack();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(await response.json()).toMatchObject({ error: "service_unavailable" });
    expect((await health()).status).toBe(200);
  });
});
