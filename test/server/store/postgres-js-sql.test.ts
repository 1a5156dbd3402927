/**
 * The Sql seam over postgres.js against a PostgreSQL server (PARTNER_API_TEST_DATABASE_URL): the
 * JavaScript types rows and parameters have, and a transaction whose connection the server ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase } from "../../../scripts/lib/fresh-database.js";
import { StoreUnavailableError } from "../../../server/platform/store-unavailable.js";
import { postgresJsSql } from "../../../server/store/postgres/postgres-js-sql.js";
import type { Sql } from "../../../server/store/postgres/sql-client.js";

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.runIf(serverUrl)("the Sql seam over postgres.js", () => {
  let databaseUrl: string;
  let sql: Sql;
  beforeAll(async () => {
    databaseUrl = await createDatabase(serverUrl!, "partner_api_driver");
    sql = postgresJsSql({ connectionString: databaseUrl, max: 3 });
    await sql.exec(`CREATE TABLE kinds (
      id bigint PRIMARY KEY, at timestamptz, doc jsonb, names text[], amounts bigint[], counts integer[], flag boolean, price numeric)`);
  });
  afterAll(async () => {
    await sql?.close();
    if (databaseUrl) await dropDatabase(serverUrl!, databaseUrl);
  });

  it("reads rows as plain objects of the types the decoders take, and reads parameters as node-postgres sent them", async () => {
    const at = new Date("2026-11-27T03:04:05.678Z");
    await sql.query("INSERT INTO kinds VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
      9_007_199_254_740_000,
      at,
      // The stores stringify their JSON: stored as that JSON, not as a JSON string of it.
      JSON.stringify({ a: [1, "two"] }),
      ["x", 'with "quote" and \\ and ,', null],
      [1, 2],
      [3],
      true,
      "1.50",
    ]);
    await sql.query("INSERT INTO kinds (id, doc) VALUES ($1, $2)", [2, { object: true }]);
    const rows = await sql.query("SELECT * FROM kinds ORDER BY id DESC");
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(rows).toEqual([
      {
        id: 9_007_199_254_740_000,
        at,
        doc: { a: [1, "two"] },
        names: ["x", 'with "quote" and \\ and ,', null],
        amounts: [1, 2],
        counts: [3],
        flag: true,
        price: "1.50",
      },
      { id: 2, at: null, doc: { object: true }, names: null, amounts: null, counts: null, flag: null, price: null },
    ]);
    // An array of Dates as a timestamptz[] the statement casts to; undefined as NULL.
    const [row] = await sql.query("SELECT $1::timestamptz[] AS ats, $2::text IS NULL AS missing", [[at, at], undefined]);
    expect(row).toEqual({ ats: [at, at], missing: true });
  });

  it("keeps the SQLSTATE of a failed statement, for the retry of serialization failures", async () => {
    await expect(sql.query("INSERT INTO kinds (id) VALUES (2)")).rejects.toMatchObject({ code: "23505" });
    await expect(sql.transaction((tx) => tx.query("SELECT 1 / 0"))).rejects.toMatchObject({ code: "22012" });
  });

  it("runs a transaction at the isolation asked, nested ones in it, and rolls it back when the work throws", async () => {
    const isolation = async (tx: Sql) =>
      ((await tx.query("SHOW transaction_isolation"))[0] as { transaction_isolation: string }).transaction_isolation;
    expect(await sql.transaction(isolation)).toBe("serializable");
    expect(await sql.transaction(isolation, "read committed")).toBe("read committed");
    await expect(
      sql.transaction(async (tx) => {
        await tx.transaction((inner) => inner.query("INSERT INTO kinds (id) VALUES (3)"));
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await sql.query("SELECT id FROM kinds WHERE id = 3")).toEqual([]);
  });

  it("answers 503 for a transaction whose connection the server ends, and serves the next on another", async () => {
    const failure = await sql
      .transaction(async (tx) => {
        await tx.query("SELECT pg_terminate_backend(pg_backend_pid())");
        return tx.query("SELECT 1");
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    await expect(sql.transaction((tx) => tx.query("SELECT 1 AS one"))).resolves.toEqual([{ one: 1 }]);
  });
});
