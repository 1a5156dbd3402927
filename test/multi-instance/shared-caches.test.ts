/**
 * What each instance caches of what changes rarely (server/store/postgres/change-cache.ts): keys,
 * sandbox clocks, framing origins, branding. A change made through one instance, `npm run keys`
 * or SQL is honoured by the other from its next request, told by the database's notification (and
 * a key's revocation and a clock's advance checked by each request's admission, even unheard); with
 * that notification's connection cut, an instance reads the database on every request until it
 * listens again, then caches again. Needs a PostgreSQL server: `npm run test:postgres` starts a
 * throwaway one.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { hashApiKey } from "../../server/partners/keys/api-keys.js";
import { openPostgresPersistence, type PostgresPersistence } from "../../server/store/postgres/index.js";
import { LISTENER_APPLICATION_NAME } from "../../server/store/postgres/notification-listener.js";
import { keysCli } from "../support/keys-cli.js";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

/** How long a listener may take to connect again, or a notification to arrive: far beyond either on a quiet machine. */
const WAIT_MS = 20_000;

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/** A session of its own on `url`, for what the tests do to the database besides the instances. */
async function session(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe.skipIf(!serverUrl)("caches of instances on one database", () => {
  let database: string;
  let instances: Instance[] = [];
  /** On the test's database: opened before any test blocks new connections to it. */
  let admin: pg.Client;
  /** On the server's own database: where connections to the test's database are allowed or not. */
  let server: pg.Client;
  beforeAll(async () => {
    database = await freshDatabase(serverUrl!);
    instances = await Promise.all([startInstance(database), startInstance(database)]);
    [admin, server] = await Promise.all([session(database), session(serverUrl!)]);
    await listeners(2);
  });
  afterAll(async () => {
    await server?.query(`ALTER DATABASE ${databaseName(database)} ALLOW_CONNECTIONS true`);
    await Promise.all([...instances.map((instance) => instance.stop()), admin?.end(), server?.end()]);
  });

  /** Waits until `count` listeners listen on the test's database. */
  async function listeners(count: number): Promise<void> {
    await vi.waitFor(
      async () => {
        const { rows } = await admin.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query ILIKE 'LISTEN%'",
          [LISTENER_APPLICATION_NAME],
        );
        expect(rows[0].n).toBe(count);
      },
      { timeout: scaled(WAIT_MS), interval: 20 },
    );
  }

  const a = () => instances[0]!;
  const b = () => instances[1]!;
  const keys = (...args: string[]) => keysCli(args, { ...process.env, DATABASE_URL: database, PARTNER_API_DATA_DIR: "" });
  const newKey = async (partner: string) => /sk_sandbox_\w+/.exec(await keys("create", "--partner", partner, "--env", "sandbox"))![0];
  const withKey = (instance: Instance, key: string, method = "GET", path = "/api/v1/users?limit=1", body?: unknown) =>
    fetch(`${instance.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const statusWith = async (instance: Instance, key: string) => (await withKey(instance, key)).status;
  /** A key made through the API on instance A, its id and secret. */
  const madeOnA = async (full: string) =>
    (await (await withKey(a(), full, "POST", "/api/v1/api_keys", { name: "cached", scopes: ["users:read"] })).json()) as {
      id: string;
      secret: string;
    };
  /** Deletes a key's row without the notification: what an instance not listening would miss. */
  const deleteUnheard = async (key: string) => {
    await admin.query("BEGIN");
    await admin.query("SET LOCAL session_replication_role = replica");
    await admin.query("DELETE FROM api_keys WHERE hash = $1", [hashApiKey(key).toString("hex")]);
    await admin.query("COMMIT");
  };

  /** Changes what a key may do without the notification: what an instance that cached the key does not hear. */
  const rescopeUnheard = async (key: string, scopes: string[]) => {
    await admin.query("BEGIN");
    await admin.query("SET LOCAL session_replication_role = replica");
    await admin.query("UPDATE api_keys SET scopes = $2 WHERE hash = $1", [hashApiKey(key).toString("hex"), scopes]);
    await admin.query("COMMIT");
  };
  /** Moves the racer partner's sandbox clock without the notification. */
  const advanceUnheard = async (seconds: number) => {
    await admin.query("BEGIN");
    await admin.query("SET LOCAL session_replication_role = replica");
    await admin.query(
      `INSERT INTO sandbox_clock_offsets (partner_id, offset_ms) VALUES ('racer', $1)
       ON CONFLICT (partner_id) DO UPDATE SET offset_ms = sandbox_clock_offsets.offset_ms + EXCLUDED.offset_ms`,
      [seconds * 1000],
    );
    await admin.query("COMMIT");
  };

  /**
   * Waits until B serves a key from its cache: a key it accepted, whose scopes changed without
   * notification, keeps its old scopes there (and A, which never read it, applies the new). B
   * caches only once its listener has told it that it listens, a moment after the database shows
   * the LISTEN.
   */
  async function cachingOnB(full: string): Promise<void> {
    await vi.waitFor(
      async () => {
        const probe = await madeOnA(full);
        expect(await statusWith(b(), probe.secret)).toBe(200);
        await rescopeUnheard(probe.secret, ["domains:read"]);
        expect(await statusWith(b(), probe.secret)).toBe(200);
        expect(await statusWith(a(), probe.secret)).toBe(403);
      },
      { timeout: scaled(WAIT_MS) },
    );
  }

  it("hold a key an instance accepted in its cache: what a key may do, changed without notification, stays as read there", async () => {
    // The premise of the tests below: without it, they would pass on an instance that caches nothing.
    await cachingOnB(await newKey("Cached Keys Ltd"));
  });

  it("refuse a key deleted without any notification on the next request of an instance that holds it in its cache", async () => {
    // The request's admission checks the key as the database stands (migrations/0019_request_admission.sql):
    // a request that reaches an instance before the notification does is answered right.
    const full = await newKey("Unheard Keys Ltd");
    await cachingOnB(full);
    const { secret } = await madeOnA(full);
    expect(await statusWith(b(), secret)).toBe(200);
    await deleteUnheard(secret);
    expect(await statusWith(b(), secret)).toBe(401);
    expect(await statusWith(b(), full)).toBe(200);
  });

  it("show a sandbox clock moved without any notification in the next answer of an instance that holds it in its cache", async () => {
    const clock = async (instance: Instance) => (await instance.call("GET", "/api/v1/sandbox/clock")).body.advanced_seconds as number;
    const before = await clock(b());
    expect(await clock(b())).toBe(before);
    await advanceUnheard(3600);
    expect(await clock(b())).toBe(before + 3600);
    expect(await clock(a())).toBe(before + 3600);
  });

  it("refuse a key revoked through one instance's API, or with npm run keys, on the other from its next request", async () => {
    const full = await newKey("Revoked Keys Ltd");
    const { id, secret } = await madeOnA(full);
    expect(await statusWith(b(), secret)).toBe(200);
    expect(await statusWith(b(), secret)).toBe(200);
    expect((await withKey(a(), full, "DELETE", `/api/v1/api_keys/${id}`)).status).toBe(204);
    expect(await statusWith(b(), secret)).toBe(401);

    expect(await statusWith(b(), full)).toBe(200);
    await keys("revoke", "--key", full);
    expect(await statusWith(b(), full)).toBe(401);
  });

  it("refuse a key rolled with no grace through one instance on the other from its next request, and accept the new one", async () => {
    const full = await newKey("Rolled Keys Ltd");
    const { id, secret } = await madeOnA(full);
    expect(await statusWith(b(), secret)).toBe(200);
    const rolled = await withKey(a(), full, "POST", `/api/v1/api_keys/${id}/roll`, { grace_seconds: 0 });
    expect(rolled.status).toBe(201);
    expect(await statusWith(b(), secret)).toBe(401);
    expect(await statusWith(b(), ((await rolled.json()) as { secret: string }).secret)).toBe(200);
  });

  it("show a sandbox clock advanced through one instance in the other's next answer", async () => {
    const clock = async (instance: Instance) => (await instance.call("GET", "/api/v1/sandbox/clock")).body.advanced_seconds as number;
    const before = await clock(b());
    expect(await clock(b())).toBe(before);
    expect((await a().call("POST", "/api/v1/sandbox/clock/advance", { seconds: 7200 })).status).toBe(200);
    expect(await clock(b())).toBe(before + 7200);
  });

  it("with the notifications' connection cut, read every key from the database, and cache again once it listens again", async () => {
    const full = await newKey("Cut Listener Ltd");
    const { secret } = await madeOnA(full);
    // Connections of B's pool opened now serve it while no new one is allowed.
    await Promise.all(Array.from({ length: 4 }, () => statusWith(b(), secret)));
    expect(await statusWith(b(), secret)).toBe(200);

    await server.query(`ALTER DATABASE ${databaseName(database)} ALLOW_CONNECTIONS false`);
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
        [LISTENER_APPLICATION_NAME],
      );
      await listeners(0);
      // Revoked while no instance listens: no instance is told.
      await admin.query("DELETE FROM api_keys WHERE hash = $1", [hashApiKey(secret).toString("hex")]);
      expect(await statusWith(b(), secret)).toBe(401);
      expect(await statusWith(b(), full)).toBe(200);
      await deleteUnheard(full);
      expect(await statusWith(b(), full)).toBe(401);
    } finally {
      await server.query(`ALTER DATABASE ${databaseName(database)} ALLOW_CONNECTIONS true`);
    }

    await listeners(2);
    // Listening again, B caches again, and hears the next revocation.
    const again = await newKey("Cut Listener Ltd");
    await cachingOnB(again);
    const { id, secret: revoked } = await madeOnA(again);
    expect(await statusWith(b(), revoked)).toBe(200);
    expect((await withKey(a(), again, "DELETE", `/api/v1/api_keys/${id}`)).status).toBe(204);
    expect(await statusWith(b(), revoked)).toBe(401);
  });
});

describe.skipIf(!serverUrl)("framing origins and branding cached by two persistences on one database", () => {
  let database: string;
  let persistences: PostgresPersistence[] = [];
  beforeAll(async () => {
    database = await freshDatabase(serverUrl!);
    persistences = await Promise.all([0, 1].map(() => openPostgresPersistence({ databaseUrl: database }, { environment: "sandbox" })));
    await vi.waitFor(() => expect(persistences.map((p) => p.caches?.isListening)).toEqual([true, true]), { timeout: scaled(WAIT_MS) });
  });
  afterAll(async () => {
    await Promise.all(persistences.map((persistence) => persistence.close()));
  });

  it("honour origins and a colour set through one on the other once the notification arrives, and serve them from memory until then", async () => {
    const [one, two] = persistences as [PostgresPersistence, PostgresPersistence];
    const now = new Date();
    expect(await two.framingOrigins.originsOf("ptn_cached", "sandbox")).toEqual([]);
    expect((await two.branding.brandingOf("ptn_cached", "sandbox")).accentColour).toBeNull();

    await one.framingOrigins.setOrigins("ptn_cached", "sandbox", ["https://shop.example"]);
    await one.branding.setAccentColour("ptn_cached", "sandbox", "#123456", now);
    await vi.waitFor(
      async () => {
        expect(await two.framingOrigins.originsOf("ptn_cached", "sandbox")).toEqual(["https://shop.example"]);
        expect((await two.branding.brandingOf("ptn_cached", "sandbox")).accentColour).toBe("#123456");
      },
      { timeout: scaled(WAIT_MS), interval: 5 },
    );
    // Written without notification, the rows change under the cache: the cached answer stays.
    await one.sql.transaction(async (tx) => {
      await tx.query("SET LOCAL session_replication_role = replica");
      await tx.query("UPDATE framing_origins SET origins = '{https://unheard.example}' WHERE partner_id = 'ptn_cached'");
    }, "read committed");
    expect(await two.framingOrigins.originsOf("ptn_cached", "sandbox")).toEqual(["https://shop.example"]);
    // This persistence's own write is honoured by it at once.
    await two.framingOrigins.setOrigins("ptn_cached", "sandbox", []);
    expect(await two.framingOrigins.originsOf("ptn_cached", "sandbox")).toEqual([]);
  });
});
