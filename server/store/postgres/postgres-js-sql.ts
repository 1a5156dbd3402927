/**
 * The Sql seam over postgres.js (the `postgres` package), the driver of a PostgreSQL server
 * (bench/results/2026-11-27-drivers.md has the measurement that chose it over node-postgres).
 * Rows are plain objects of the JavaScript types PGlite gives, so the decoders of
 * generated/db-rows.ts read both; statements with parameters are prepared once per connection.
 */
import postgres from "postgres";
import { StoreUnavailableError } from "../../platform/store-unavailable.js";
import {
  CONNECTION_WAIT_MS,
  classified,
  type Isolation,
  limitedTo,
  RETRY_AFTER_SECONDS,
  type Row,
  type Sql,
  UNIT_OF_WORK_LIMIT_MS,
  unavailability,
} from "./sql-client.js";

export interface PostgresJsOptions {
  connectionString: string;
  /** Connections this instance holds at most. */
  max: number;
  /** How long a statement waits for a connection; CONNECTION_WAIT_MS unless a test shortens it. */
  connectionTimeoutMillis?: number;
  /** How long a unit of work may hold its connection; UNIT_OF_WORK_LIMIT_MS unless a test shortens it. */
  unitOfWorkLimitMs?: number;
}

/**
 * A parameter in the text node-postgres sent for it, so PostgreSQL reads every parameter from the
 * statement's own casts as before: postgres.js would type a Date, a boolean or an array by its
 * JavaScript value (an array of Dates as one timestamptz) and JSON-encode a string bound to jsonb.
 * Strings pass as they are (the stores stringify their JSON), objects as JSON, arrays as array literals.
 */
function asParameter(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const elements = values.map((element) => {
    if (element === null || element === undefined) return "NULL";
    if (Array.isArray(element)) return arrayLiteral(element);
    return `"${String(asParameter(element)).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  });
  return `{${elements.join(",")}}`;
}

const asParameters = (params: readonly unknown[]) => params.map(asParameter) as postgres.ParameterOrJSON<never>[];

/** The serializer of every type: parameters are already their text (asParameter). */
const asText = (value: unknown): string => String(value);

/**
 * An array as node-postgres read it: an unquoted NULL as null (postgres.js reads it as the text
 * "NULL"), each other element through `element`, nested arrays as nested arrays.
 */
function parseArray(text: string, element: (value: string) => unknown): unknown[] {
  // Lower bounds other than 1 come first ("[0:1]={...}"): the elements are what follows.
  let at = text.startsWith("[") ? text.indexOf("=") + 1 : 0;
  const level = (): unknown[] => {
    const values: unknown[] = [];
    at++;
    while (at < text.length) {
      const char = text[at];
      if (char === "}") {
        at++;
        return values;
      }
      if (char === ",") at++;
      else if (char === "{") values.push(level());
      else if (char === '"') {
        let value = "";
        for (at++; text[at] !== '"'; at++) value += text[text[at] === "\\" ? ++at : at];
        at++;
        values.push(element(value));
      } else {
        let end = at;
        while (text[end] !== "," && text[end] !== "}") end++;
        const value = text.slice(at, end);
        at = end;
        values.push(value === "NULL" ? null : element(value));
      }
    }
    return values;
  };
  return level();
}

const asIs = (value: string) => value;
const asNumber = (value: string) => Number(value);
const asBoolean = (value: string) => value === "t";
const asDate = (value: string) => new Date(value);
const asJson = (value: string) => JSON.parse(value) as unknown;

/** Arrays of the element types the schema uses, by the array type's OID, with how each element reads. */
const ARRAYS: [oid: number, element: (value: string) => unknown][] = [
  [1009, asIs], // text[]
  [1015, asIs], // varchar[]
  [1014, asIs], // bpchar[]
  [2951, asIs], // uuid[]
  [1231, asIs], // numeric[], text as node-postgres gave it
  [1005, asNumber], // int2[]
  [1007, asNumber], // int4[]
  [1016, asNumber], // int8[], numbers as int8 is
  [1021, asNumber], // float4[]
  [1022, asNumber], // float8[]
  [1000, asBoolean], // bool[]
  [1182, asDate], // date[]
  [1115, asDate], // timestamp[]
  [1185, asDate], // timestamptz[]
  [199, asJson], // json[]
  [3807, asJson], // jsonb[]
];

/** How each type the schema uses reads, by OID; the others keep postgres.js's reading (numbers, text). */
const PARSERS: [oid: number, parse: (value: string) => unknown][] = [
  // int8 (counts, cents, offsets) as numbers: every value the store keeps is far below 2^53.
  [20, asNumber],
  [114, asJson],
  [3802, asJson],
  [16, asBoolean],
  [1082, asDate],
  [1114, asDate],
  [1184, asDate],
  [17, (value) => Buffer.from(value.slice(2), "hex")],
  ...ARRAYS.map(([oid, element]): [number, (value: string) => unknown] => [oid, (value) => parseArray(value, element)]),
];

/**
 * Reads rows and sends parameters as node-postgres did. Set on the client's own tables rather than
 * as postgres.js's `types` option: postgres.js builds a function for each of those on every
 * transaction it begins, a cost per write that grows with their number.
 */
function readAsBefore(client: postgres.Sql): void {
  const { parsers, serializers } = client.options;
  for (const [oid, parse] of PARSERS) parsers[oid] = parse;
  // Every parameter is already the text to send (asParameter).
  for (const oid of Object.keys(serializers)) serializers[Number(oid)] = asText;
}

/**
 * Statements sent on a busy connection before its answers come back (postgres.js pipelines them).
 * A pool's statements wait behind at most this many others instead of for a connection.
 */
const PIPELINE_DEPTH = 100;

/** The refusal of a statement that found no connection within the wait. */
const noConnection = (waitMs: number) =>
  new StoreUnavailableError(`no database connection was free within ${waitMs / 1000} s`, RETRY_AFTER_SECONDS);

/** What postgres.js takes that its type declarations leave out. */
type DriverOptions = postgres.Options<Record<string, never>> & {
  max_pipeline?: number;
};
const open = (connectionString: string, options: DriverOptions) => {
  const client = postgres(connectionString, options);
  readAsBefore(client as unknown as postgres.Sql);
  return client;
};
type Client = ReturnType<typeof open>;
type ClientTypes = Client extends postgres.Sql<infer Types> ? Types : never;

function driverOptions(connectionTimeoutMillis: number, max: number): DriverOptions {
  return {
    max,
    prepare: true,
    // The arrays the schema uses are read by PARSERS; other types come as text, as node-postgres gave
    // them, and opening a connection takes no query of the catalogue.
    fetch_types: false,
    max_pipeline: PIPELINE_DEPTH,
    // Idle connections are closed as node-postgres's pool closed them.
    idle_timeout: 30,
    // Opening a connection gives up before the wait for one runs out, so a statement waiting on a
    // connection being opened is refused by the driver, never cancelled by the wait below.
    connect_timeout: (connectionTimeoutMillis * 0.75) / 1000,
    // A restarted server is tried again at once, as node-postgres did: no growing pause between attempts.
    backoff: () => 0,
    // Notices (IF NOT EXISTS of migrations) are not errors; postgres.js would print them.
    onnotice: () => {},
  };
}

/**
 * A statement given to the pool, refused with 503 once it has waited `waitMs` without starting:
 * postgres.js would otherwise queue it without end. Cancelling takes it out of the queue, or, if
 * already pipelined on a connection, cancels it on the server as it starts.
 */
function bounded<R>(query: postgres.PendingQuery<postgres.Row[]>, waitMs: number): Promise<R[]> {
  return new Promise<R[]>((resolve, reject) => {
    let refused = false;
    const timer = setTimeout(() => {
      if ((query as unknown as { active: boolean }).active) return;
      refused = true;
      query.cancel();
      reject(noConnection(waitMs));
    }, waitMs);
    query.then(
      (rows) => {
        clearTimeout(timer);
        if (!refused) resolve(rows as unknown as R[]);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!refused) reject(unavailability(error) ?? error);
      },
    );
  });
}

/** The statements of one transaction, on its connection. */
function transactionSql(tx: postgres.TransactionSql<ClientTypes>, ended: () => boolean): Sql {
  // A statement after the transaction ended (its connection lost) would run on whatever session
  // the driver opened next: refused instead.
  const over = () => new StoreUnavailableError("the database connection of this unit of work was lost", RETRY_AFTER_SECONDS);
  const sql: Sql = {
    connections: 1,
    query: async <R extends Row>(text: string, params: readonly unknown[] = []) => {
      if (ended()) throw over();
      return classified(async () => (await tx.unsafe(text, asParameters(params), { prepare: true })) as unknown as R[]);
    },
    exec: async (text) => {
      if (ended()) throw over();
      await classified(() => tx.unsafe(text));
    },
    transaction: (work) => work(sql),
    close: async () => {},
  };
  return sql;
}

export function postgresJsSql({
  connectionString,
  max,
  connectionTimeoutMillis = CONNECTION_WAIT_MS,
  unitOfWorkLimitMs = UNIT_OF_WORK_LIMIT_MS,
}: PostgresJsOptions): Sql {
  const client = open(connectionString, driverOptions(connectionTimeoutMillis, max));
  const limit = `SET LOCAL statement_timeout = ${unitOfWorkLimitMs}; SET LOCAL idle_in_transaction_session_timeout = ${unitOfWorkLimitMs}`;

  async function transaction<T>(work: (sql: Sql) => Promise<T>, isolation: Isolation = "serializable"): Promise<T> {
    let started = false;
    let ended = false;
    let abandoned = false;
    const run = client.begin(isolation === "serializable" ? "isolation level serializable" : "isolation level read committed", (tx) => {
      started = true;
      if (abandoned) throw noConnection(connectionTimeoutMillis);
      const startedAt = performance.now();
      // Sent behind BEGIN without waiting: its answer comes with the first statement's.
      tx.unsafe(limit)
        .execute()
        .catch(() => {});
      return new Promise<T>((resolve, reject) => {
        work(
          limitedTo(
            transactionSql(tx, () => ended),
            startedAt,
            unitOfWorkLimitMs,
          ),
        ).then(
          (result) => {
            // A transaction whose connection was lost has nothing to commit; postgres.js would send
            // COMMIT or ROLLBACK on the connection it reopened.
            if (!ended) resolve(result);
          },
          (error: unknown) => {
            if (ended) return;
            if (!lostConnection(error)) return reject(error);
            // Its connection closing ends the transaction (postgres.js rejects `begin`); one that
            // did not close after all is rolled back as any other failure.
            setTimeout(() => {
              if (!ended) reject(error);
            }, LOST_CONNECTION_GRACE_MS).unref();
          },
        );
      });
    });
    const settled = run.then(
      (result) => {
        ended = true;
        return result as T;
      },
      (error: unknown) => {
        ended = true;
        throw unavailability(error) ?? error;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (started) return;
        abandoned = true;
        reject(noConnection(connectionTimeoutMillis));
      }, connectionTimeoutMillis);
    });
    try {
      return await Promise.race([settled, waited]);
    } finally {
      clearTimeout(timer);
      // An abandoned transaction still settles (rolled back) once it gets its connection.
      settled.catch(() => {});
    }
  }

  return {
    connections: max,
    query: <R extends Row>(text: string, params: readonly unknown[] = []) =>
      bounded<R>(client.unsafe(text, asParameters(params), { prepare: true }), connectionTimeoutMillis),
    exec: async (text) => {
      await bounded(client.unsafe(text), connectionTimeoutMillis);
    },
    transaction,
    close: async () => {
      // Statements still running get as long as a statement waits for a connection: postgres.js would
      // otherwise wait without end for a connection the server ended during a statement.
      await client.end({ timeout: connectionTimeoutMillis / 1000 });
    },
  };
}

/** How long a transaction whose statement failed as a lost connection waits for the driver to report the loss. */
const LOST_CONNECTION_GRACE_MS = 1_000;

/**
 * A failure that means the transaction's session ended: the server or the socket closed it. A
 * cancelled statement (57014) or a refusal of ours leaves the session open, to be rolled back.
 */
function lostConnection(error: unknown): boolean {
  const raw = error instanceof StoreUnavailableError ? error.cause : error;
  const code = (raw as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && code !== "57014" && unavailability(raw) !== null;
}
