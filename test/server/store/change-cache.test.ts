/**
 * The per-instance caches of server/store/postgres/change-cache.ts and cached-stores.ts, told of
 * changes by a fake listener: when they serve from memory (only while listening), how they fail
 * safe, the race of a read against an invalidation, and their bounds. Two instances on a real
 * database: test/multi-instance/shared-caches.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { Environment } from "../../../generated/deployment.js";
import type { ApiKeyStore, StoredApiKey } from "../../../server/partners/keys/api-key-store.js";
import type { ClockOffsetStore } from "../../../server/domain/sandbox/clock-offset-store.js";
import { CachedApiKeyStore, CachedClockOffsetStore, CachedFramingOriginStore } from "../../../server/store/postgres/cached-stores.js";
import { ChangeCaches, TableCache } from "../../../server/store/postgres/change-cache.js";
import type { FramingOriginStore } from "../../../server/partners/framing/framing-origin-store.js";

/** A read whose answer the test releases when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A table cache and a counter of the loads that reached "the database". */
function counting(listening = true, maxEntries?: number) {
  const state = { listening };
  const cache = new TableCache<string>(() => state.listening, maxEntries);
  const loads: string[] = [];
  const read = (key: string, answer = `value of ${key}`) =>
    cache.read(key, async () => {
      loads.push(key);
      return answer;
    });
  return { state, cache, loads, read };
}

describe("a table's cache", () => {
  it("answers a key read before from memory while listening", async () => {
    const { read, loads } = counting();
    expect(await read("a")).toBe("value of a");
    expect(await read("a")).toBe("value of a");
    expect(loads).toEqual(["a"]);
  });

  it("reads every time from the database while not listening, and keeps nothing", async () => {
    const { read, loads, cache } = counting(false);
    await read("a");
    await read("a");
    expect(loads).toEqual(["a", "a"]);
    expect(cache.size).toBe(0);
  });

  it("stores nothing a read brought after its key was invalidated while it ran", async () => {
    const { cache } = counting();
    const slow = deferred<string>();
    const reading = cache.read("a", () => slow.promise);
    cache.invalidate("a");
    slow.resolve("as it was before the change");
    expect(await reading).toBe("as it was before the change");
    expect(cache.size).toBe(0);
    expect(await cache.read("a", async () => "as it is now")).toBe("as it is now");
    expect(cache.peek("a")).toBe("as it is now");
  });

  it("stores a read's answer when only another key was invalidated while it ran", async () => {
    const { cache } = counting();
    const slow = deferred<string>();
    const reading = cache.read("a", () => slow.promise);
    cache.invalidate("b");
    slow.resolve("a's value");
    await reading;
    expect(cache.peek("a")).toBe("a's value");
  });

  it("stores nothing of a read under way when the table was invalidated whole, or listening stopped and started again", async () => {
    const { cache } = counting();
    const first = deferred<string>();
    const reading = cache.read("a", () => first.promise);
    cache.invalidateAll();
    first.resolve("old");
    await reading;
    expect(cache.size).toBe(0);

    const caches = new ChangeCaches();
    const table = caches.table<string>("t");
    caches.onState(true);
    const second = deferred<string>();
    const again = table.read("a", () => second.promise);
    caches.onState(false);
    caches.onState(true);
    second.resolve("read before the cut");
    await again;
    expect(table.size).toBe(0);
  });

  it("keeps an invalidation of a key that came while two reads of it were under way, for both", async () => {
    const { cache } = counting();
    const one = deferred<string>();
    const two = deferred<string>();
    const first = cache.read("a", () => one.promise);
    const second = cache.read("a", () => two.promise);
    cache.invalidate("a");
    one.resolve("old");
    await first;
    two.resolve("old too");
    await second;
    expect(cache.size).toBe(0);
  });

  it("answers undefined without storing it: an unknown key costs its query every time", async () => {
    const cache = new TableCache<string>(() => true);
    let loads = 0;
    const unknown = () =>
      cache.read("nobody", async () => {
        loads++;
        return undefined;
      });
    expect(await unknown()).toBeUndefined();
    expect(await unknown()).toBeUndefined();
    expect(loads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("keeps at most its bound, giving up the least recently used", async () => {
    const { read, cache, loads } = counting(true, 3);
    for (const key of ["a", "b", "c"]) await read(key);
    await read("a"); // a is now the most recently used: b goes first.
    await read("d");
    expect(cache.size).toBe(3);
    loads.length = 0;
    await read("a");
    await read("c");
    await read("d");
    expect(loads).toEqual([]);
    await read("b");
    expect(loads).toEqual(["b"]);
    for (let i = 0; i < 1000; i++) await read(`key ${i}`);
    expect(cache.size).toBe(3);
  });
});

describe("the caches of an instance, told by its listener", () => {
  it("serve nothing before the first LISTEN succeeded, and start empty after each", async () => {
    const caches = new ChangeCaches();
    const table = caches.table<string>("api_keys");
    let loads = 0;
    const read = () =>
      table.read("h", async () => {
        loads++;
        return "key";
      });
    await read();
    await read();
    expect(loads).toBe(2);
    caches.onState(true);
    await read();
    await read();
    expect(loads).toBe(3);
    caches.onState(false);
    expect(table.size).toBe(0);
    await read();
    expect(loads).toBe(4);
    caches.onState(true);
    await read();
    expect(loads).toBe(5);
  });

  it("drop the entry a notification names, the whole table's for one without a key, and every table's for one they cannot read", async () => {
    const caches = new ChangeCaches();
    caches.onState(true);
    const keys = caches.table<string>("api_keys");
    const origins = caches.table<string[]>("framing_origins");
    const fill = async () => {
      await keys.read("h1", async () => "one");
      await keys.read("h2", async () => "two");
      await origins.read('["ptn_1","sandbox"]', async () => ["https://a.example"]);
    };
    await fill();
    caches.onNotify('{"table": "api_keys", "key": "h1"}');
    expect([keys.peek("h1"), keys.peek("h2")]).toEqual([undefined, "two"]);
    caches.onNotify('{"table": "framing_origins", "key": ["ptn_1", "sandbox"]}');
    expect(origins.size).toBe(0);
    await fill();
    caches.onNotify('{"table": "api_keys"}');
    expect([keys.size, origins.size]).toEqual([0, 1]);
    await fill();
    caches.onNotify('{"table": "some_other_table", "key": "h2"}');
    expect([keys.size, origins.size]).toEqual([2, 1]);
    caches.onNotify("not json");
    expect([keys.size, origins.size]).toEqual([0, 0]);
  });
});

const NOW = new Date("2026-11-27T12:00:00Z");

function storedKey(overrides: Partial<StoredApiKey> = {}): StoredApiKey {
  return {
    id: "key_1",
    hash: "ab".repeat(32),
    partnerId: "ptn_1",
    partnerName: "Partner",
    environment: "sandbox",
    name: "a key",
    createdAt: new Date("2026-11-01T00:00:00Z"),
    hint: "sk_sandbox_ab",
    lastFour: "abcd",
    lastUsedAt: null,
    expiresAt: null,
    scopes: null,
    restrictions: null,
    ...overrides,
  };
}

/** The database's side of a key store: one row, the lookups and writes counted. */
function fakeKeys(row: StoredApiKey | undefined) {
  const calls = { finds: 0, touches: 0 };
  const store: ApiKeyStore = {
    findKey: async (hash, now) => {
      calls.finds++;
      return row && row.hash === hash && (row.expiresAt === null || row.expiresAt > now) ? row : undefined;
    },
    addKey: async (key) => {
      row = key;
    },
    revokeKey: async () => {
      const had = row !== undefined;
      row = undefined;
      return had;
    },
    keysOf: async () => (row ? [row] : []),
    keysOfPartner: async () => (row ? [row] : []),
    revokeKeyById: async (_partner, id) => {
      const had = row?.id === id;
      if (had) row = undefined;
      return had;
    },
    expireKey: async (_partner, id, at) => {
      if (row?.id !== id) return false;
      row = { ...row, expiresAt: at };
      return true;
    },
    touchKey: async (_hash, at) => {
      calls.touches++;
      if (row) row = { ...row, lastUsedAt: at };
    },
    deleteExpiredKeys: async () => 0,
  };
  return { store, calls };
}

describe("the cached key store", () => {
  const listeningCaches = () => {
    const caches = new ChangeCaches();
    caches.onState(true);
    return caches;
  };

  it("asks the database once for a known key, and checks its expiry against each lookup's time", async () => {
    const key = storedKey({ expiresAt: new Date(NOW.getTime() + 60_000) });
    const { store, calls } = fakeKeys(key);
    const cached = new CachedApiKeyStore(store, listeningCaches());
    expect(await cached.findKey(key.hash, NOW)).toEqual(key);
    expect(await cached.findKey(key.hash, NOW)).toEqual(key);
    expect(calls.finds).toBe(1);
    expect(await cached.findKey(key.hash, new Date(NOW.getTime() + 60_000))).toBeUndefined();
  });

  it("asks the database each time for an unknown key", async () => {
    const { store, calls } = fakeKeys(undefined);
    const cached = new CachedApiKeyStore(store, listeningCaches());
    await cached.findKey("cd".repeat(32), NOW);
    await cached.findKey("cd".repeat(32), NOW);
    expect(calls.finds).toBe(2);
  });

  it("refuses a key at once after this instance revoked it, by hash or by id, or ended it with a roll", async () => {
    for (const end of [
      (keys: ApiKeyStore) => keys.revokeKey(storedKey().hash),
      (keys: ApiKeyStore) => keys.revokeKeyById("ptn_1", "key_1"),
      (keys: ApiKeyStore) => keys.expireKey("ptn_1", "key_1", NOW),
    ]) {
      const { store } = fakeKeys(storedKey());
      const cached = new CachedApiKeyStore(store, listeningCaches());
      expect(await cached.findKey(storedKey().hash, NOW)).toBeDefined();
      await end(cached);
      expect(await cached.findKey(storedKey().hash, NOW)).toBeUndefined();
    }
  });

  it("records a key's use in the cached entry, so the next lookup does not record it again", async () => {
    const { store, calls } = fakeKeys(storedKey());
    const cached = new CachedApiKeyStore(store, listeningCaches());
    await cached.findKey(storedKey().hash, NOW);
    await cached.touchKey(storedKey().hash, NOW);
    expect(calls.touches).toBe(1);
    expect((await cached.findKey(storedKey().hash, NOW))?.lastUsedAt).toEqual(NOW);
    expect(calls.finds).toBe(1);
  });
});

describe("the cached clock offsets and framing origins", () => {
  it("read a partner's offset once, and again after this instance advanced it", async () => {
    let offset = 0;
    let reads = 0;
    const stored: ClockOffsetStore = {
      offsetOf: async () => {
        reads++;
        return offset;
      },
      advance: async (_partner, ms) => (offset += ms),
      reset: async () => {
        offset = 0;
      },
    };
    const caches = new ChangeCaches();
    caches.onState(true);
    const clocks = new CachedClockOffsetStore(stored, caches);
    expect(await clocks.offsetOf("ptn_1")).toBe(0);
    expect(await clocks.offsetOf("ptn_1")).toBe(0);
    expect(reads).toBe(1);
    await clocks.advance("ptn_1", 3_600_000);
    expect(await clocks.offsetOf("ptn_1")).toBe(3_600_000);
    caches.onNotify('{"table": "sandbox_clock_offsets", "key": "ptn_1"}');
    await clocks.offsetOf("ptn_1");
    expect(reads).toBe(3);
  });

  it("answer a copy of the origins, and drop them on a notification naming the partner and environment", async () => {
    let origins = ["https://a.example"];
    let reads = 0;
    const stored: FramingOriginStore = {
      originsOf: async () => {
        reads++;
        return [...origins];
      },
      setOrigins: async (_partner, _environment: Environment, next) => {
        origins = [...next];
      },
    };
    const caches = new ChangeCaches();
    caches.onState(true);
    const framing = new CachedFramingOriginStore(stored, caches);
    (await framing.originsOf("ptn_1", "sandbox")).push("https://changed-by-a-caller.example");
    expect(await framing.originsOf("ptn_1", "sandbox")).toEqual(["https://a.example"]);
    origins = ["https://b.example"];
    caches.onNotify('{"table": "framing_origins", "key": ["ptn_1", "production"]}');
    expect(await framing.originsOf("ptn_1", "sandbox")).toEqual(["https://a.example"]);
    caches.onNotify('{"table": "framing_origins", "key": ["ptn_1", "sandbox"]}');
    expect(await framing.originsOf("ptn_1", "sandbox")).toEqual(["https://b.example"]);
    expect(reads).toBe(2);
  });
});
