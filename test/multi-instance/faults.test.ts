/**
 * What partners' writes survive: an instance killed with SIGKILL in the middle of writes and of a
 * webhook delivery; and what partners are answered while the database is gone or busy. Needs
 * PostgreSQL: `npm run test:postgres` starts a throwaway server (and this file a cluster of its own).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { startCluster, startServer, stopCluster, stopServer } from "../../scripts/lib/postgres-cluster.js";
import { openSql } from "../../server/store/postgres/index.js";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
const run = `f${Date.now().toString(36)}`;
let counter = 0;
const fresh = (what: string) => `${what}-${run}-${++counter}`;

describe.skipIf(!databaseUrl)("an instance killed with SIGKILL", () => {
  const started: Instance[] = [];
  let database: string;
  beforeAll(async () => {
    database = await freshDatabase(databaseUrl!);
  });
  const start = async (env: NodeJS.ProcessEnv = {}) => {
    const instance = await startInstance(database, env);
    started.push(instance);
    return instance;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((instance) => instance.stop()));
  });

  it(
    "loses no write it answered 2xx: each is there after a restart",
    async () => {
      const first = await start();
      const user = fresh("user");
      expect((await first.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
      const domain = await first.call("POST", "/api/v1/sandbox/domains", { user_identifier: user, domain_name: `${fresh("d")}.com` });
      const domainId = domain.body.id as string;
      const answered: string[] = [];
      let next = 0;
      let killed = false;
      // Eight writers, each sending its next write as soon as the last is answered, until the instance is gone.
      const writer = async () => {
        while (!killed) {
          const name = `w${next++}`;
          try {
            const created = await first.call("POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name, content: "192.0.2.9" });
            if (created.status === 201) answered.push(created.body.id);
          } catch {
            return; // The connection went with the process.
          }
        }
      };
      const writers = Array.from({ length: 8 }, writer);
      while (answered.length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await first.kill();
      await Promise.all(writers);
      const second = await start();
      const stored = new Set<string>();
      for (let cursor: string | null = null, first = true; first || cursor; first = false) {
        const page = await second.call("GET", `/api/v1/domains/${domainId}/dns${cursor ? `?cursor=${cursor}` : ""}`);
        expect(page.status).toBe(200);
        for (const record of page.body.records as Array<{ id: string }>) stored.add(record.id);
        cursor = page.body.next_cursor;
      }
      expect(answered.length).toBeGreaterThanOrEqual(40);
      expect(answered.filter((id) => !stored.has(id))).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    "does not lose the webhook delivery it was sending: another instance sends it once its claim runs out",
    async () => {
      const receiver = await startWebhookReceiver();
      // A short claim, so the test need not wait the default's minute for the killed instance's to run out.
      const env = { PARTNER_API_WEBHOOK_LEASE_MS: "1500" };
      const sender = await start(env);
      const endpoint = await sender.call("POST", "/api/v1/webhook_endpoints", { url: receiver.url, events: ["user.deleted"] });
      expect(endpoint.status).toBe(201);
      receiver.hold();
      const user = fresh("user");
      await sender.call("POST", "/api/v1/users", { user_identifier: user });
      await sender.call("DELETE", `/api/v1/users/${user}`);
      // The instance is in the middle of the attempt: the receiver has the request and holds its answer.
      for (let i = 0; i < 400 && receiver.received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(receiver.received).toHaveLength(1);
      const eventId = receiver.received[0]!.body.id;
      await sender.kill();
      receiver.release();
      await start(env);
      for (let i = 0; i < 1000 && receiver.received.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      // At least once: sent again, with the same event id, which receivers deduplicate on.
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      expect(receiver.received[1]!.body.id).toBe(eventId);
      await receiver.stop();
    },
    scaled(60_000),
  );
});

describe.skipIf(!databaseUrl)("the database out of reach, and a pool with no connection free", () => {
  let cluster: { databaseUrl: string; directory: string; port: number };
  let database: string;
  const instances: Instance[] = [];
  beforeAll(async () => {
    // A cluster of this test's own: it is stopped and started again under the instance.
    cluster = await startCluster();
    database = await freshDatabase(cluster.databaseUrl);
  }, scaled(60_000));
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    stopCluster(cluster.directory);
  });

  it(
    "answers 503 with Retry-After while the database is down, never a 500, and recovers by itself when it is back",
    async () => {
      const instance = await startInstance(database);
      instances.push(instance);
      const user = fresh("user");
      expect((await instance.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
      // Load while it goes: writers and readers keep sending, before, during and after the stop.
      let loading = true;
      const statusesSeen = new Set<number>();
      const load = Promise.all(
        Array.from({ length: 6 }, async (_, n) => {
          while (loading) {
            const answer =
              n % 2 === 0
                ? await instance.call("POST", "/api/v1/users", { user_identifier: fresh("user") })
                : await instance.call("GET", `/api/v1/users/${user}`);
            statusesSeen.add(answer.status);
            if (answer.status === 503) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
          }
        }),
      );
      stopServer(cluster.directory);
      try {
        for (const [method, path, body] of [
          ["GET", `/api/v1/users/${user}`],
          ["POST", "/api/v1/users", { user_identifier: fresh("user") }],
          ["GET", "/health"],
        ] as const) {
          const answer = await instance.call(method, path, body);
          expect(answer.status, `${method} ${path}`).toBe(503);
          expect(Number(answer.headers.get("retry-after")), `${method} ${path}`).toBeGreaterThan(0);
          expect(answer.body.error, `${method} ${path}`).toBe("service_unavailable");
        }
      } finally {
        startServer(cluster.directory, cluster.port);
      }
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await instance.call("GET", `/api/v1/users/${user}`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      loading = false;
      await load;
      // Under load the answers were the documented ones: successes, and 503s while the database was gone.
      expect([...statusesSeen].sort()).toEqual([200, 201, 503]);
      expect(instance.process.output()).not.toMatch(/"level":50/);
    },
    scaled(60_000),
  );

  it(
    "answers 503 with Retry-After, in bounded time, a request that finds no connection free",
    async () => {
      const instance = await startInstance(database, { PARTNER_API_DB_POOL_SIZE: "1" });
      instances.push(instance);
      const blocker = await openSql({ databaseUrl: database, poolSize: 1 });
      let release!: () => void;
      const locked = new Promise<void>((resolve) => (release = resolve));
      let lockTaken!: () => void;
      const taken = new Promise<void>((resolve) => (lockTaken = resolve));
      // Holds the users table: the write below takes the instance's one connection and waits on it.
      const holding = blocker.transaction(async (tx) => {
        await tx.query("LOCK TABLE users IN ACCESS EXCLUSIVE MODE");
        lockTaken();
        await locked;
      }, "read committed");
      await taken;
      const write = instance.call("POST", "/api/v1/users", { user_identifier: fresh("user") });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await instance.call("GET", "/api/v1/users?limit=1");
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      release();
      await holding;
      await blocker.close();
      expect((await write).status).toBe(201);
    },
    scaled(60_000),
  );
});
