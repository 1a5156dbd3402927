/**
 * The listening connection of server/store/postgres/notification-listener.ts on a real PostgreSQL:
 * what it tells of its state when the server ends it, and when the network stops carrying its
 * bytes without closing it (a proxy in between that holds them). Needs a PostgreSQL server:
 * `npm run test:postgres` starts a throwaway one.
 */
import { createServer, type Server, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scaled } from "../../../scripts/lib/deadlines.js";
import { freshDatabase } from "../../../scripts/lib/fresh-database.js";
import { LISTENER_APPLICATION_NAME, listenForChanges } from "../../../server/store/postgres/notification-listener.js";
import { openSql } from "../../../server/store/postgres/index.js";
import type { Sql } from "../../../server/store/postgres/sql-client.js";

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
const CHANNEL = "listener_test";

/** What the listener told, in order. */
function recorder() {
  const told: (boolean | string)[] = [];
  return { told, handlers: { onNotify: (payload: string) => told.push(payload), onState: (listening: boolean) => told.push(listening) } };
}

/** A TCP proxy to the database that can stop passing bytes while keeping both connections open. */
async function holdingProxy(target: URL): Promise<{ url: string; hold(): void; close(): Promise<void> }> {
  let holding = false;
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.push(client, upstream);
    upstream.connect(Number(target.port), target.hostname);
    client.on("data", (data) => holding || upstream.write(data));
    upstream.on("data", (data) => holding || client.write(data));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: url.toString(),
    hold: () => {
      holding = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!serverUrl)("the listener of the database's notifications", () => {
  let database: string;
  let sql: Sql;
  beforeAll(async () => {
    database = await freshDatabase(serverUrl!);
    sql = await openSql({ databaseUrl: database, poolSize: 1 });
  });
  afterAll(async () => {
    await sql?.close();
  });

  it("tells it listens, passes on notifications, tells at once that it stopped when the server ends it, and listens again", async () => {
    const { told, handlers } = recorder();
    const listener = listenForChanges(database, CHANNEL, handlers);
    try {
      await vi.waitFor(() => expect(told).toEqual([true]), { timeout: scaled(10_000) });
      await sql.query("SELECT pg_notify($1, 'one')", [CHANNEL]);
      await vi.waitFor(() => expect(told).toEqual([true, "one"]), { timeout: scaled(10_000) });
      await sql.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
        [LISTENER_APPLICATION_NAME],
      );
      await vi.waitFor(() => expect(told).toEqual([true, "one", false, true]), { timeout: scaled(10_000) });
      await sql.query("SELECT pg_notify($1, 'two')", [CHANNEL]);
      await vi.waitFor(() => expect(told).toEqual([true, "one", false, true, "two"]), { timeout: scaled(10_000) });
    } finally {
      await listener.close();
    }
    await sql.query("SELECT pg_notify($1, 'after close')", [CHANNEL]);
    expect(told.at(-1)).toBe("two");
  });

  it("tells it stopped when its connection carries nothing any more, though nothing closed it", async () => {
    const proxy = await holdingProxy(new URL(database));
    const { told, handlers } = recorder();
    const listener = listenForChanges(proxy.url, CHANNEL, handlers);
    try {
      await vi.waitFor(() => expect(told).toEqual([true]), { timeout: scaled(10_000) });
      proxy.hold();
      // The heartbeat's unanswered query, not TCP's minutes, ends it.
      await vi.waitFor(() => expect(told).toEqual([true, false]), { timeout: scaled(20_000), interval: 100 });
    } finally {
      await listener.close();
      await proxy.close();
    }
  });
});
