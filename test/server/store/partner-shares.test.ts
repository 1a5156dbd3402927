/**
 * One partner's writes cannot hold every connection (server/platform/partner-shares.ts), and no unit
 * of work holds its connection past its limit (server/store/postgres/sql-client.ts), on the store
 * the tests run on; the limit also on a PostgreSQL server when PARTNER_API_TEST_DATABASE_URL names one.
 */
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it, vi } from "vitest";
import { pause } from "../../../scripts/lib/deadlines.js";
import { PartnerShares, partnerShareOf } from "../../../server/platform/partner-shares.js";
import { StoreUnavailableError } from "../../../server/platform/store-unavailable.js";
import { postgresJsSql } from "../../../server/store/postgres/postgres-js-sql.js";
import { pgliteSql, type Sql } from "../../../server/store/postgres/sql-client.js";
import { inTransaction, partnerSharesOf } from "../../../server/application/transactions.js";
import { useTestServer } from "../../support/test-server.js";

const s = useTestServer();

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("each partner's share of the writes", () => {
  it("runs a partner's writes beyond its share after another partner's, never before", async () => {
    const share = partnerSharesOf(s.services.persistence).perPartner;
    const held = gate();
    const started: string[] = [];
    const finished: string[] = [];
    const write = (partnerId: string, name: string, hold?: Promise<void>) =>
      inTransaction(
        s.services,
        async (tx) => {
          started.push(name);
          await tx.store.findUser(partnerId, "nobody");
          await hold;
          finished.push(name);
        },
        "serializable",
        partnerId,
      );
    // Partner A takes its whole share, each write held open, and asks for one more.
    const heavy = Array.from({ length: share }, (_, i) => write("partner_a", `a${i}`, held.opened));
    await vi.waitFor(() => expect(started).toHaveLength(share));
    const beyond = write("partner_a", "a-beyond");
    // Partner B's write comes after A's extra one, and still does not queue behind it.
    const light = write("partner_b", "b");
    // With a connection left over (a pool), B does not wait for A at all; with one, it waits for one of A's.
    if (s.services.persistence.connections > share) await light;
    expect(started).not.toContain("a-beyond");
    held.open();
    await Promise.all([...heavy, beyond, light]);
    expect(finished.indexOf("b")).toBeLessThan(finished.indexOf("a-beyond"));
  });

  it("answers 503 with Retry-After once a partner's queue is full, or its wait ran out; other partners go on", async () => {
    const shares = new PartnerShares(1, 1, 60_000);
    const held = gate();
    const running = shares.run("a", () => held.opened);
    const waiting = shares.run("a", async () => "waited");
    await expect(shares.run("a", async () => "refused")).rejects.toMatchObject({
      name: "StoreUnavailableError",
      retryAfterSeconds: 1,
      message: expect.stringMatching(/partner a has too many writes waiting/),
    });
    await expect(shares.run("b", async () => "other partner")).resolves.toBe("other partner");
    held.open();
    await running;
    await expect(waiting).resolves.toBe("waited");
    expect(shares.runningOf("a")).toBe(0);

    const short = new PartnerShares(1, 8, 1);
    const holding = gate();
    const first = short.run("a", () => holding.opened);
    await expect(short.run("a", async () => "late")).rejects.toBeInstanceOf(StoreUnavailableError);
    holding.open();
    await first;
    await expect(short.run("a", async () => "free again")).resolves.toBe("free again");
  });

  it("gives a partner half the connections, at least one", () => {
    expect([1, 2, 5, 10, 20].map(partnerShareOf)).toEqual([1, 1, 3, 5, 10]);
  });
});

/** A unit of work that runs past the limit, on the SQL client given. */
async function pastItsLimit(sql: Sql, limitMs: number) {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT 1");
    await pause(limitMs + 5);
    await tx.query("SELECT 1");
  });
}

describe("a unit of work's time limit", () => {
  it("refuses a statement started past the limit on PGlite: rolled back, 503 with Retry-After", async () => {
    const sql = pgliteSql(await PGlite.create(), 20);
    try {
      await sql.exec("CREATE TABLE t (n integer)");
      await expect(
        sql.transaction(async (tx) => {
          await tx.query("INSERT INTO t VALUES (1)");
          await pause(25);
          await tx.query("INSERT INTO t VALUES (2)");
        }),
      ).rejects.toMatchObject({
        name: "StoreUnavailableError",
        retryAfterSeconds: 1,
        message: "a unit of work ran past its limit of 0.02 s",
      });
      expect(await sql.query("SELECT count(*)::integer AS n FROM t")).toEqual([{ n: 0 }]);
      await expect(pastItsLimit(sql, 20)).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await sql.close();
    }
  });

  it.skipIf(!process.env.PARTNER_API_TEST_DATABASE_URL)(
    "cancels a statement running past the limit on a PostgreSQL server, and refuses one started after it",
    async () => {
      const sql = postgresJsSql({ connectionString: process.env.PARTNER_API_TEST_DATABASE_URL!, max: 1, unitOfWorkLimitMs: 200 });
      try {
        await expect(sql.transaction((tx) => tx.query("SELECT pg_sleep(5)"))).rejects.toMatchObject({
          name: "StoreUnavailableError",
          message: expect.stringMatching(/^a unit of work ran past its limit/),
        });
        await expect(pastItsLimit(sql, 200)).rejects.toBeInstanceOf(StoreUnavailableError);
        // The connection serves the next unit of work.
        await expect(sql.transaction((tx) => tx.query("SELECT 1 AS one"))).resolves.toEqual([{ one: 1 }]);
      } finally {
        await sql.close();
      }
    },
  );
});
