/**
 * The one seam between the PostgreSQL store and its engines: node-postgres's pool for a server
 * (DATABASE_URL) and PGlite, PostgreSQL compiled to WebAssembly, in a directory or in memory. Both
 * give rows of the same JavaScript types: the store's SQL casts where the engines differ.
 */
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { StoreUnavailableError } from "../persistence.js";

export type Row = Record<string, unknown>;
export type Isolation = "serializable" | "read committed";

export interface Sql {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Several statements, no parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * Runs `work` in one transaction on one connection, SERIALIZABLE unless `isolation` says READ
   * COMMITTED (claims that lock what they take and skip what others hold); nested calls run in the outer one.
   */
  transaction<T>(work: (sql: Sql) => Promise<T>, isolation?: Isolation): Promise<T>;
  close(): Promise<void>;
}

/** int8 (counts, cents, offsets) as numbers: every value the store keeps is far below 2^53. */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** How long a request waits for a free connection before it is answered 503 (bounded time, never a queue without end). */
export const CONNECTION_WAIT_MS = 2_000;
/** What a 503 of an unreachable database asks clients to wait before retrying. */
const RETRY_AFTER_SECONDS = 1;

/**
 * SQLSTATE classes and node errors that mean the database is out of reach, not that the request
 * is wrong: connection exceptions (08), operator intervention (57: shutdown, restart), and the
 * socket's own errors.
 */
function unavailability(error: unknown): StoreUnavailableError | null {
  if (error instanceof StoreUnavailableError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  const unreachable =
    (typeof code === "string" &&
      (/^(08|57P)/.test(code) || ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"].includes(code))) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i.test(
      text,
    );
  return unreachable
    ? new StoreUnavailableError(`the database is out of reach: ${text || String(code)}`, RETRY_AFTER_SECONDS, { cause: error })
    : null;
}

async function classified<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw unavailability(error) ?? error;
  }
}

/** Statement names by text: node-postgres prepares a named statement once per connection. */
const statementNames = new Map<string, string>();
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `s${statementNames.size}`));
  return name;
};

function clientSql(client: pg.PoolClient): Sql {
  const sql: Sql = {
    query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
      classified(async () => (await client.query<R>({ name: statementName(text), text, values: params as unknown[] })).rows),
    exec: async (text) => {
      await classified(() => client.query(text));
    },
    transaction: (work) => work(sql),
    close: async () => {},
  };
  return sql;
}

export interface PoolOptions {
  connectionString: string;
  /** Connections this instance holds at most. */
  max: number;
  /** How long a query waits for a free connection; CONNECTION_WAIT_MS unless a test shortens it. */
  connectionTimeoutMillis?: number;
}

export function poolSql({ connectionString, max, connectionTimeoutMillis = CONNECTION_WAIT_MS }: PoolOptions): Sql & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis, idleTimeoutMillis: 30_000 });
  // An idle connection the server ends (a restart) is an event, not a crash: the next query opens another.
  pool.on("error", () => {});
  return {
    pool,
    query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
      classified(async () => (await pool.query<R>({ name: statementName(text), text, values: params as unknown[] })).rows),
    exec: async (text) => {
      await classified(() => pool.query(text));
    },
    async transaction<T>(work: (sql: Sql) => Promise<T>, isolation: Isolation = "serializable"): Promise<T> {
      const client = await classified(() => pool.connect());
      let broken: unknown;
      try {
        await classified(() => client.query(isolation === "serializable" ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN"));
        const result = await work(clientSql(client));
        await classified(() => client.query("COMMIT"));
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection whose rollback failed is not handed out again.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}

/** PGlite: one connection, so its transactions run one at a time; serializable is what they are. */
export function pgliteSql(db: PGlite): Sql {
  const over = (target: Pick<PGlite, "query" | "exec">, inTransaction: boolean): Sql => {
    const sql: Sql = {
      query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
        (await target.query<R>(text, params as unknown[])).rows,
      exec: async (text) => {
        await target.exec(text);
      },
      transaction: (work) => (inTransaction ? work(sql) : db.transaction((tx) => work(over(tx, true)))),
      close: () => db.close(),
    };
    return sql;
  };
  return over(db, false);
}
