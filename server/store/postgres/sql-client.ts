/**
 * The one seam between the PostgreSQL store and its engines: postgres.js's pool for a server
 * (DATABASE_URL, postgres-js-sql.ts) and PGlite, PostgreSQL compiled to WebAssembly, in a directory or in memory. Both
 * give rows of the same JavaScript types: the store's SQL casts where the engines differ. The stores
 * read rows through the decoders of generated/db-rows.ts (`npm run generate` writes them from the
 * migrations), which check each column's type, rather than through `query`'s unchecked type argument.
 */
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

/** How long a request waits for a free connection before it is answered 503 (bounded time, never a queue without end). */
export const CONNECTION_WAIT_MS = 2_000;
/** What a 503 of an unreachable database asks clients to wait before retrying. */
export const RETRY_AFTER_SECONDS = 1;
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
export function limitedTo(sql: Sql, startedAt: number, limitMs: number): Sql {
  const limited: Sql = {
    ...sql,
    query: (text, params) => (performance.now() - startedAt > limitMs ? Promise.reject(pastLimit(limitMs)) : sql.query(text, params)),
    exec: (text) => (performance.now() - startedAt > limitMs ? Promise.reject(pastLimit(limitMs)) : sql.exec(text)),
    transaction: (work) => work(limited),
  };
  return limited;
}

/** Codes of node's socket errors and of postgres.js's errors for a connection lost, ended or not opened in time. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * SQLSTATE classes and node errors that mean the database is out of reach, not that the request
 * is wrong: connection exceptions (08), operator intervention (57: shutdown, restart), the
 * socket's own errors and the driver's for a connection it lost or could not open in time.
 */
export function unavailability(error: unknown): StoreUnavailableError | null {
  if (error instanceof StoreUnavailableError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  // query_canceled (statement_timeout) and idle_in_transaction_session_timeout: a unit of work past its limit.
  if (code === "57014" || code === "25P03")
    return new StoreUnavailableError(`a unit of work ran past its limit: ${text}`, RETRY_AFTER_SECONDS, { cause: error });
  const unreachable = typeof code === "string" && (/^(08|57P)/.test(code) || UNREACHABLE_CODES.has(code));
  return unreachable
    ? new StoreUnavailableError(`the database is out of reach: ${text || String(code)}`, RETRY_AFTER_SECONDS, { cause: error })
    : null;
}

export async function classified<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw unavailability(error) ?? error;
  }
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
