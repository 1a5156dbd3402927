/**
 * `npm run bench:drivers`: node-postgres (`pg`) against postgres.js (`postgres`) on the store's own
 * statements, in one run on one machine against a throwaway PostgreSQL 15 cluster on the same
 * machine. For each driver: the client's CPU per query (process.cpuUsage), PostgreSQL's (the
 * cluster's processes in /proc) and throughput, at one query in flight and at 50 in flight over a
 * pool of 10; prepared against unprepared statements; postgres.js with and without pipelining; then
 * the server stopped and started while queries run. Each figure is the least CPU and the most
 * throughput of --rounds rounds (default 2; the machine is shared, the least is the driver's own
 * cost). Options: --queries N (per measurement, default 3000), --out FILE (default
 * bench/results/<date>-drivers.md).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import postgres from "postgres";
import { freshDatabase } from "../scripts/lib/fresh-database.js";
import { startCluster, startServer, stopCluster, stopServer } from "../scripts/lib/postgres-cluster.js";
import { openSql } from "../server/store/postgres/index.js";
import { postgresJsSql } from "../server/store/postgres/postgres-js-sql.js";
import { classified, type Row, type Sql } from "../server/store/postgres/sql-client.js";
import { clusterCpuMicroseconds } from "./lib/processes.js";

const { values } = parseArgs({
  options: { queries: { type: "string", default: "3000" }, rounds: { type: "string", default: "2" }, out: { type: "string" } },
});
const QUERIES = Number(values.queries);
const ROUNDS = Number(values.rounds);
const POOL = 10;
const IN_FLIGHT = 50;
const RECORDS_PER_PAGE = 50;

/** One statement as a driver sends it: `run` sends it once, `worker` tells concurrent senders apart. */
interface Client {
  query(text: string, params: readonly unknown[]): Promise<unknown>;
  /** The statements in one SERIALIZABLE transaction. */
  transaction(statements: (query: (text: string, params: readonly unknown[]) => Promise<unknown>) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** node-postgres as the server used it until postgres.js: a pool, each statement named (prepared once per connection). */
function pgClient(url: string, named: boolean): Client {
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: POOL });
  pool.on("error", () => {});
  const names = new Map<string, string>();
  const name = (text: string) => {
    let found = names.get(text);
    if (found === undefined) names.set(text, (found = `s${names.size}`));
    return found;
  };
  const send = (target: pg.Pool | pg.PoolClient) => async (text: string, params: readonly unknown[]) =>
    (await target.query(named ? { name: name(text), text, values: params as unknown[] } : { text, values: params as unknown[] })).rows;
  return {
    query: send(pool),
    async transaction(statements) {
      const client = await pool.connect();
      try {
        await client.query(
          "BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL statement_timeout = 15000; SET LOCAL idle_in_transaction_session_timeout = 15000",
        );
        await statements(send(client));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** postgres.js itself, parameters already in their text (as the store's seam gives them). */
function postgresClient(url: string, prepare: boolean, pipelining: boolean): Client {
  const sql = postgres(url, {
    max: POOL,
    prepare,
    onnotice: () => {},
    types: { int8: { to: 20, from: [20], serialize: String, parse: Number } },
    // Depth 1 is the least postgres.js allows: its transactions are reserved only as BEGIN is pipelined.
    ...({ max_pipeline: pipelining ? 100 : 1 } as object),
  });
  const send = (target: postgres.Sql | postgres.TransactionSql) => (text: string, params: readonly unknown[]) =>
    target.unsafe(text, params.map(textOf) as string[], { prepare });
  return {
    query: send(sql),
    async transaction(statements) {
      await sql.begin("isolation level serializable", async (tx) => {
        void tx
          .unsafe("SET LOCAL statement_timeout = 15000; SET LOCAL idle_in_transaction_session_timeout = 15000")
          .execute()
          .catch(() => {});
        await statements(send(tx));
      });
    },
    close: () => sql.end(),
  };
}

const textOf = (value: unknown): string | null =>
  value === null || value === undefined ? null : Array.isArray(value) ? `{${value.map((v) => `"${String(v)}"`).join(",")}}` : String(value);

/** The server's Sql seam (either driver under it) as a Client. */
function seamClient(sql: Sql): Client {
  return {
    query: (text, params) => sql.query<Row>(text, params),
    transaction: (statements) => sql.transaction((tx) => statements((text, params) => tx.query(text, params))),
    close: () => sql.close(),
  };
}

/** The node-postgres seam the server had (sql-client.ts's poolSql before postgres.js), for the seam against seam. */
function pgSeam(url: string): Sql {
  const client = pgClient(url, true);
  const sql: Sql = {
    connections: POOL,
    query: <R extends Row>(text: string, params: readonly unknown[] = []) => classified(() => client.query(text, params) as Promise<R[]>),
    exec: async (text) => {
      await classified(() => client.query(text, []));
    },
    transaction: async <T>(work: (tx: Sql) => Promise<T>) => {
      let result!: T;
      await classified(() =>
        client.transaction(async (query) => {
          const tx: Sql = {
            ...sql,
            query: <R extends Row>(text: string, params: readonly unknown[] = []) => query(text, params) as Promise<R[]>,
          };
          result = await work(tx);
        }),
      );
      return result;
    },
    close: () => client.close(),
  };
  return sql;
}

interface Seeded {
  partnerId: string;
  domainIds: string[];
}

async function seed(url: string): Promise<Seeded> {
  const sql = await openSql({ databaseUrl: url, poolSize: 1 });
  const partnerId = "partner_bench";
  await sql.exec(`
    INSERT INTO users (partner_id, user_identifier, email, created_at, last_login, updated_at, total_spent)
      SELECT '${partnerId}', 'user_' || n, 'u' || n || '@example.com', now() - n * interval '1 minute', now(), now(), n * 100
      FROM generate_series(1, 200) n;
    INSERT INTO domains (id, partner_id, user_identifier, name, status, purchased_at, expires_at, auto_renew, whois_privacy,
        nameservers, registration_price, renewal_price, currency, updated_at)
      SELECT 'dom_' || n, '${partnerId}', 'user_' || n, 'bench' || n || '.example', 'active', now(), now() + interval '1 year', true, false,
        ARRAY['ns1.example.net', 'ns2.example.net'], 1200, 1500, 'USD', now()
      FROM generate_series(1, ${IN_FLIGHT}) n;
    INSERT INTO dns_records (id, domain_id, type, name, content, ttl, created_at, updated_at)
      SELECT 'rec_' || n, 'dom_1', 'A', 'host' || n || '.bench1.example', '192.0.2.' || (n % 250), 300, now(), now()
      FROM generate_series(1, 500) n;
    ANALYZE;`);
  await sql.close();
  return { partnerId, domainIds: Array.from({ length: IN_FLIGHT }, (_, i) => `dom_${i + 1}`) };
}

/** The statements a read and a write send (server/store/postgres/pg-store.ts, pg-shared-stores.ts). */
function statements({ partnerId, domainIds }: Seeded) {
  const RECORD_PAGE = `SELECT id, domain_id, type, name, content, ttl, priority, created_at, updated_at FROM dns_records
    WHERE domain_id = $1 AND ($2::text IS NULL OR name_key = lower($2)) AND ($3::text IS NULL OR type = $3)
    ORDER BY name_key, type, created_at, id LIMIT $4`;
  return {
    "domain by id": (client: Client, worker: number) => client.query("SELECT * FROM domains WHERE id = $1", [domainIds[worker]]),
    "record page (50)": (client: Client) => client.query(RECORD_PAGE, ["dom_1", null, null, RECORDS_PER_PAGE]),
    "rate limits": (client: Client, worker: number, i: number) => {
      const window = Math.floor(Date.now() / 60_000) * 60;
      return client.query("SELECT counts, refused FROM consume_rate_limits($1::text[], $2::bigint[], $3::integer[])", [
        [`key_${worker}_${i % 20}:partner`, `key_${worker}_${i % 20}:route`],
        [window, window],
        [1_000_000, 1_000_000],
      ]);
    },
    "users page (20)": (client: Client) =>
      client.query("SELECT * FROM users WHERE partner_id = $1 ORDER BY created_at, user_identifier LIMIT $2 OFFSET $3", [
        partnerId,
        20,
        40,
      ]),
    "insert record (transaction)": (client: Client, worker: number) =>
      client.transaction(async (query) => {
        await query(
          "INSERT INTO dns_records (id, domain_id, type, name, content, ttl, created_at, updated_at) VALUES ($1, $2, 'TXT', $3, $4, 300, $5, $5)",
          [`rec_${randomUUID()}`, domainIds[worker], `w${worker}.bench.example`, "bench", new Date()],
        );
      }),
  };
}

interface Measured {
  clientCpuUs: number;
  databaseCpuUs: number;
  perSecond: number;
}

async function measure(
  directory: string,
  client: Client,
  statement: (client: Client, worker: number, i: number) => Promise<unknown>,
  inFlight: number,
): Promise<Measured> {
  // Warm: connections opened, statements prepared, the JIT settled.
  await Promise.all(Array.from({ length: inFlight }, (_, worker) => statement(client, worker, 0)));
  for (let i = 0; i < 200; i++) await statement(client, i % inFlight, i);
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const databaseBefore = clusterCpuMicroseconds(directory);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_, worker) => {
      while (next < QUERIES) await statement(client, worker, next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    clientCpuUs: (cpu.user + cpu.system) / QUERIES,
    databaseCpuUs: (clusterCpuMicroseconds(directory) - databaseBefore) / QUERIES,
    perSecond: QUERIES / seconds,
  };
}

interface RestartOutcome {
  queries: number;
  errors: Map<string, number>;
  recoveryMs: number | null;
  slowestMs: number;
  pendingAtEnd: number;
}

/**
 * Reads at 10 in flight for a few seconds while the server stops and starts again: what fails and
 * how, how long after the start the first read succeeds, the slowest read, and reads never settled.
 */
async function restart(cluster: { directory: string; port: number }, sql: Sql, domainId: string): Promise<RestartOutcome> {
  const outcome: RestartOutcome = { queries: 0, errors: new Map(), recoveryMs: null, slowestMs: 0, pendingAtEnd: 0 };
  let running = true;
  let startedAgainAt: number | null = null;
  let pending = 0;
  const reader = async () => {
    while (running) {
      const started = performance.now();
      pending++;
      try {
        await sql.query("SELECT * FROM domains WHERE id = $1", [domainId]);
        if (startedAgainAt !== null && outcome.recoveryMs === null) outcome.recoveryMs = performance.now() - startedAgainAt;
      } catch (error) {
        const key = `${(error as Error).name}: ${String((error as Error).message).replace(/\d+\.\d+\.\d+\.\d+:\d+/, "HOST")}`;
        outcome.errors.set(key, (outcome.errors.get(key) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        pending--;
        outcome.queries++;
        outcome.slowestMs = Math.max(outcome.slowestMs, performance.now() - started);
      }
    }
  };
  const readers = Array.from({ length: 10 }, reader);
  await new Promise((resolve) => setTimeout(resolve, 500));
  stopServer(cluster.directory);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  startServer(cluster.directory, cluster.port);
  startedAgainAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 2500));
  running = false;
  // Reads that never settle within the wait for a connection and then some are hung.
  await Promise.race([Promise.all(readers), new Promise((resolve) => setTimeout(resolve, 5000))]);
  outcome.pendingAtEnd = pending;
  return outcome;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

const cluster = await startCluster();
const lines: string[] = [];
try {
  const url = await freshDatabase(cluster.databaseUrl, "partner_api_drivers");
  const seeded = await seed(url);
  const variants: [string, () => Client][] = [
    ["pg, named (prepared)", () => pgClient(url, true)],
    ["pg, unnamed", () => pgClient(url, false)],
    ["postgres.js, prepared, pipelined", () => postgresClient(url, true, true)],
    ["postgres.js, prepared, pipeline depth 1", () => postgresClient(url, true, false)],
    ["postgres.js, unprepared, pipelined", () => postgresClient(url, false, true)],
    ["seam: pg (the server's Sql until now)", () => seamClient(pgSeam(url))],
    ["seam: postgres.js (postgresJsSql)", () => seamClient(postgresJsSql({ connectionString: url, max: POOL }))],
  ];
  const best = new Map<string, Measured>();
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round in the opposite order: neither driver always runs first on a cold machine.
    for (const [name, open] of round % 2 === 0 ? variants : [...variants].reverse()) {
      const client = open();
      try {
        for (const [statementName, statement] of Object.entries(statements(seeded))) {
          for (const inFlight of [1, IN_FLIGHT]) {
            const measured = await measure(cluster.directory, client, statement, inFlight);
            const key = `| ${name} | ${statementName} | ${inFlight} |`;
            const kept = best.get(key);
            best.set(key, {
              clientCpuUs: Math.min(measured.clientCpuUs, kept?.clientCpuUs ?? Number.POSITIVE_INFINITY),
              databaseCpuUs: Math.min(measured.databaseCpuUs, kept?.databaseCpuUs ?? Number.POSITIVE_INFINITY),
              perSecond: Math.max(measured.perSecond, kept?.perSecond ?? 0),
            });
            console.log(`round ${round + 1} ${key} ${fixed(measured.clientCpuUs)} µs`);
          }
        }
      } finally {
        await client.close();
      }
    }
  }
  const table: string[] = [
    "| driver | statement | in flight | client CPU µs/query | PostgreSQL CPU µs/query | queries/s |",
    "|---|---|---:|---:|---:|---:|",
    ...[...best].map(
      ([key, measured]) => `${key} ${fixed(measured.clientCpuUs)} | ${fixed(measured.databaseCpuUs)} | ${fixed(measured.perSecond)} |`,
    ),
  ];
  const restarts: string[] = [
    "| driver (seam) | reads | errors seen (count) | first success after start, ms | slowest read, ms | reads never settled |",
    "|---|---:|---|---:|---:|---:|",
  ];
  for (const [name, open] of [
    ["pg", () => pgSeam(url)],
    ["postgres.js", () => postgresJsSql({ connectionString: url, max: POOL })],
  ] as const) {
    const sql = open();
    const outcome = await restart(cluster, sql, seeded.domainIds[0]!);
    const errors = [...outcome.errors].map(([message, count]) => `${message} (${count})`).join("<br>") || "none";
    restarts.push(
      `| ${name} | ${outcome.queries} | ${errors} | ${outcome.recoveryMs === null ? "never" : fixed(outcome.recoveryMs)} | ${fixed(outcome.slowestMs)} | ${outcome.pendingAtEnd} |`,
    );
    console.log(restarts.at(-1));
    await sql.close();
  }
  lines.push(
    `# Drivers: node-postgres against postgres.js (${new Date().toISOString().slice(0, 10)})`,
    "",
    `Command: \`npm run bench:drivers -- --queries ${QUERIES} --rounds ${ROUNDS}\`. Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB,`,
    `Node ${process.version}, PostgreSQL 15 (throwaway cluster, fsync off) on the same machine; pool of ${POOL}.`,
    `${QUERIES} queries per row after a warm-up; client CPU is this process's (process.cpuUsage), PostgreSQL's the cluster's processes (/proc);`,
    `each figure the least CPU and the most queries/s of ${ROUNDS} rounds.`,
    "",
    "## CPU and throughput per statement",
    "",
    ...table,
    "",
    "## The server stopped (1.5 s) and started again while 10 reads run",
    "",
    ...restarts,
    "",
  );
} finally {
  stopCluster(cluster.directory);
}
const out = values.out ?? `bench/results/${new Date().toISOString().slice(0, 10)}-drivers.md`;
writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`written: ${out}`);
