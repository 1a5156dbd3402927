/**
 * The one seam between the PostgreSQL store and its engines: node-postgres's pool for a server
 * (DATABASE_URL) and PGlite, PostgreSQL compiled to WebAssembly, in a directory or in memory. Both
 * give rows of the same JavaScript types: the store's SQL casts where the engines differ. The stores
 * read rows through the decoders of generated/db-rows.ts (`npm run generate` writes them from the
 * migrations), which check each column's type, rather than through `query`'s unchecked type argument.
 */
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { StoreUnavailableError } from "../../platform/store-unavailable.js";

export type Row = Record<string, unknown>;
export type Isolation = "serializable" | "read committed";

export interface Sql {
  /** Connections it holds at most: the pool's size; one for PGlite. */
  readonly connections: number;
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
 * How long one unit of work may hold its connection: no statement starts after it, and PostgreSQL
 * cancels a statement running past it (`statement_timeout`) and ends a session left idle inside a
 * transaction as long (`idle_in_transaction_session_timeout`), so a connection is held at most
 * twice this. The largest documented request (a change set of 1,000 changes) takes a fraction of it.
 * The unit is rolled back and answered 503 with Retry-After.
 */
export const UNIT_OF_WORK_LIMIT_MS = 15_000;

/** The refusal of a statement of a unit of work that ran past its limit. */
const pastLimit = (limitMs: number) =>
  new StoreUnavailableError(`a unit of work ran past its limit of ${limitMs / 1000} s`, RETRY_AFTER_SECONDS);

/** Each statement of `sql` refused once `limitMs` have passed since `startedAt`. */
function limitedTo(sql: Sql, startedAt: number, limitMs: number): Sql {
  const limited: Sql = {
    ...sql,
    query: (text, params) => (performance.now() - startedAt > limitMs ? Promise.reject(pastLimit(limitMs)) : sql.query(text, params)),
    exec: (text) => (performance.now() - startedAt > limitMs ? Promise.reject(pastLimit(limitMs)) : sql.exec(text)),
    transaction: (work) => work(limited),
  };
  return limited;
}

/**
 * SQLSTATE classes and node errors that mean the database is out of reach, not that the request
 * is wrong: connection exceptions (08), operator intervention (57: shutdown, restart), and the
 * socket's own errors.
 */
function unavailability(error: unknown): StoreUnavailableError | null {
  if (error instanceof StoreUnavailableError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  // query_canceled (statement_timeout) and idle_in_transaction_session_timeout: a unit of work past its limit.
  if (code === "57014" || code === "25P03")
    return new StoreUnavailableError(`a unit of work ran past its limit: ${text}`, RETRY_AFTER_SECONDS, { cause: error });
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
    connections: 1,
  };
  return sql;
}

export interface PoolOptions {
  connectionString: string;
  /** Connections this instance holds at most. */
  max: number;
  /** How long a query waits for a free connection; CONNECTION_WAIT_MS unless a test shortens it. */
  connectionTimeoutMillis?: number;
  /** How long a unit of work may hold its connection; UNIT_OF_WORK_LIMIT_MS unless a test shortens it. */
  unitOfWorkLimitMs?: number;
}

export function poolSql({
  connectionString,
  max,
  connectionTimeoutMillis = CONNECTION_WAIT_MS,
  unitOfWorkLimitMs = UNIT_OF_WORK_LIMIT_MS,
}: PoolOptions): Sql & { pool: pg.Pool } {
  const limit = `SET LOCAL statement_timeout = ${unitOfWorkLimitMs}; SET LOCAL idle_in_transaction_session_timeout = ${unitOfWorkLimitMs}`;
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis, idleTimeoutMillis: 30_000 });
  // An idle connection the server ends (a restart) is an event, not a crash: the next query opens another.
  pool.on("error", () => {});
  return {
    pool,
    connections: max,
    query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
      classified(async () => (await pool.query<R>({ name: statementName(text), text, values: params as unknown[] })).rows),
    exec: async (text) => {
      await classified(() => pool.query(text));
    },
    async transaction<T>(work: (sql: Sql) => Promise<T>, isolation: Isolation = "serializable"): Promise<T> {
      const client = await classified(() => pool.connect());
      let broken: unknown;
      // The server ending the session (idle in the transaction past its limit, a restart) is an
      // event of the checked-out client: recorded, so the connection is not handed out again.
      const onError = (error: Error) => {
        broken = error;
      };
      client.on("error", onError);
      try {
        const startedAt = performance.now();
        // One round trip: the transaction and its limits.
        await classified(() => client.query(`${isolation === "serializable" ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN"}; ${limit}`));
        const result = await work(limitedTo(clientSql(client), startedAt, unitOfWorkLimitMs));
        await classified(() => client.query("COMMIT"));
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.off("error", onError);
        // A connection whose rollback failed, or that the server ended, is not handed out again.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}

/**
 * PGlite: one connection, so its transactions run one at a time; serializable is what they are.
 * A unit of work starts no statement past `unitOfWorkLimitMs` (PGlite cannot cancel one running).
 */
export function pgliteSql(db: PGlite, unitOfWorkLimitMs = UNIT_OF_WORK_LIMIT_MS): Sql {
  const over = (target: Pick<PGlite, "query" | "exec">, inTransaction: boolean): Sql => {
    const sql: Sql = {
      query: async <R extends Row>(text: string, params: readonly unknown[] = []) =>
        (await target.query<R>(text, params as unknown[])).rows,
      exec: async (text) => {
        await target.exec(text);
      },
      transaction: (work) =>
        inTransaction ? work(sql) : db.transaction((tx) => work(limitedTo(over(tx, true), performance.now(), unitOfWorkLimitMs))),
      close: () => db.close(),
      connections: 1,
    };
    return sql;
  };
  return over(db, false);
}
