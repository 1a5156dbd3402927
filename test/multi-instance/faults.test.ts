/**
 * What partners' writes survive: an instance killed with SIGKILL in the middle of writes and of a
 * webhook delivery. Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const databaseUrl = process.env.DATABASE_URL;
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

  it("loses no write it answered 2xx: each is there after a restart", async () => {
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
  }, 60_000);

  it("does not lose the webhook delivery it was sending: another instance sends it once its claim runs out", async () => {
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
  }, 60_000);
});
