/**
 * `npm run bench:postgres`: the reference server on PostgreSQL, as ratios measured in one run on
 * one machine, the database on the same machine as the servers and the load (a throwaway
 * PostgreSQL 15 cluster): PostgreSQL-backed against memory-backed; two instances on one database
 * against one; latency on 1,000,000 records and 100,000 users against 1,000 records; throughput by
 * pool size. Options: --duration S (per run, default 5), --runs N (default 3), --out FILE
 * (default bench/results/<date>-postgres.md).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { freshDatabase } from "../scripts/lib/fresh-database.js";
import { startCluster, stopCluster } from "../scripts/lib/postgres-cluster.js";
import { openSql } from "../server/store/postgres/index.js";
import { clusterCpuMicroseconds, startReferenceServer, stop, type RunningTarget } from "./lib/processes.js";
import { LIST, type Measurement, measure, median, READ, type Workload, WORKLOADS, WRITE } from "./lib/workloads.js";
import { BENCH_KEY, BENCH_PARTNER } from "./targets/seed.js";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, runs: { type: "string", default: "3" }, out: { type: "string" } },
});
const DURATION = Number(values.duration);
const RUNS = Number(values.runs);
/** Saturation, as `npm run bench` measures it. */
const CONNECTIONS = 50;
/** Latency rather than saturation: few enough that requests seldom queue. */
const LATENCY_CONNECTIONS = 10;
const POOL_SIZES = [2, 5, 10, 20];

const startReference = (env: NodeJS.ProcessEnv) => startReferenceServer({ VALIDATE: "1", ...env });
const seededBy = (target: RunningTarget) => JSON.stringify({ domainId: target.domainId, writeDomainIds: target.writeDomainIds });

/** Something measured: one target, or several at once whose throughputs add up. */
type Subject = (workload: Workload) => Promise<Measurement & { databaseCpuUsPerRequest?: number }>;

/** The subject, with the CPU time the database spent per request answered. */
const withDatabaseCpu =
  (subject: Subject): Subject =>
  async (workload) => {
    const before = clusterCpuMicroseconds(cluster.directory);
    const measured = await subject(workload);
    const spent = clusterCpuMicroseconds(cluster.directory) - before;
    return { ...measured, databaseCpuUsPerRequest: spent / Math.max(1, measured.rps * DURATION) };
  };

/** Subjects taking turns round by round after a warm-up, so a drifting machine shifts each alike; the median round of each. */
async function compare(
  subjects: Record<string, Subject>,
  workloads: Workload[],
): Promise<Map<string, Map<string, Measurement & { databaseCpuUsPerRequest?: number }>>> {
  for (const subject of Object.values(subjects)) for (const workload of workloads) await subject(workload);
  const samples = new Map<string, Map<string, Measurement[]>>(Object.keys(subjects).map((name) => [name, new Map()]));
  for (let round = 1; round <= RUNS; round++) {
    for (const workload of workloads) {
      for (const [name, subject] of Object.entries(subjects)) {
        const m = await subject(workload);
        const byWorkload = samples.get(name)! as Map<string, Measurement[]>;
        byWorkload.set(workload.name, [...(byWorkload.get(workload.name) ?? []), m]);
        console.log(
          `round ${round} | ${name} | ${workload.name}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.non2xx ? `, ${m.non2xx} non-2xx` : ""}`,
        );
      }
    }
  }
  return new Map([...samples].map(([name, byWorkload]) => [name, new Map([...byWorkload].map(([w, runs]) => [w, median(runs)]))]));
}

const alone =
  (target: RunningTarget, connections: number): Subject =>
  (workload) =>
    measure(target, workload, DURATION, connections);

/** Several instances at once, the connections split over them: throughputs add, latencies of the slowest. */
const together =
  (targets: RunningTarget[], connections: number): Subject =>
  async (workload) => {
    const each = await Promise.all(targets.map((t) => measure(t, workload, DURATION, connections / targets.length)));
    return {
      rps: each.reduce((sum, m) => sum + m.rps, 0),
      p50: Math.max(...each.map((m) => m.p50)),
      p99: Math.max(...each.map((m) => m.p99)),
      non2xx: each.reduce((sum, m) => sum + m.non2xx, 0),
      // Weighted by the requests each answered: the instances' CPU in all over their requests in all.
      cpuUsPerRequest:
        each.reduce((sum, m) => sum + m.cpuUsPerRequest * m.rps, 0) /
        Math.max(
          1,
          each.reduce((sum, m) => sum + m.rps, 0),
        ),
    };
  };

/**
 * Grows a seeded database by SQL to `users` users of the bench partner and `records` DNS records,
 * ten in each of the domains added, which the added users own. The statements go through the triggers that keep
 * users.domain_count and partner_user_counts, which are checked afterwards.
 */
async function grow(databaseUrl: string, users: number, records: number): Promise<void> {
  const sql = await openSql({ databaseUrl, poolSize: 1 });
  try {
    const partner = BENCH_PARTNER.id;
    const count = async (query: string, params: unknown[] = []) => ((await sql.query(query, params)) as { n: number }[])[0]!.n;
    const addedUsers = users - (await count("SELECT count(*)::int AS n FROM users WHERE partner_id = $1", [partner]));
    const addedDomains = Math.floor((records - (await count("SELECT count(*)::int AS n FROM dns_records"))) / 10);
    await sql.query(
      `INSERT INTO users (partner_id, user_identifier, email, created_at, last_login, updated_at, total_spent)
       SELECT $1, 'bulk_' || lpad(i::text, 7, '0'), NULL, now() - i * interval '1 second', now(), now(), 0 FROM generate_series(1, $2::int) AS i`,
      [partner, addedUsers],
    );
    await sql.query(
      `INSERT INTO domains (id, partner_id, user_identifier, name, status, purchased_at, expires_at, auto_renew, whois_privacy,
                            nameservers, registration_price, renewal_price, currency, updated_at)
       SELECT 'dom_bulk' || i, $1, 'bulk_' || lpad(((i - 1) % $3 + 1)::text, 7, '0'), 'bulk-' || i || '.com', 'active', now(), now() + interval '1 year',
              true, false, ARRAY['ns1.example.net', 'ns2.example.net'], 1299, 1299, 'USD', now()
       FROM generate_series(1, $2::int) AS i`,
      [partner, addedDomains, addedUsers],
    );
    await sql.query(
      `INSERT INTO dns_records (id, domain_id, type, name, content, ttl, priority, created_at, updated_at)
       SELECT 'rec_bulk' || d || '_' || r, 'dom_bulk' || d, 'TXT', 'r' || r, 'bulk record', 3600, NULL, now(), now()
       FROM generate_series(1, $1::int) AS d, generate_series(1, 10) AS r`,
      [addedDomains],
    );
    const [check] = (await sql.query(
      `SELECT (SELECT count(*)::int FROM users WHERE partner_id = $1) AS users,
              (SELECT sum(count)::int FROM partner_user_counts WHERE partner_id = $1) AS counted,
              (SELECT count(*)::int FROM users u WHERE domain_count <> (SELECT count(*) FROM domains d
                 WHERE d.partner_id = u.partner_id AND d.user_identifier = u.user_identifier)) AS miscounted,
              (SELECT count(*)::int FROM dns_records) AS records`,
      [partner],
    )) as { users: number; counted: number; miscounted: number; records: number }[];
    if (check!.users !== check!.counted || check!.miscounted !== 0)
      throw new Error(`the counts kept by triggers do not hold after the seed: ${JSON.stringify(check)}`);
    console.log(`grown: ${JSON.stringify(check)}`);
    await sql.exec("VACUUM ANALYZE");
  } finally {
    await sql.close();
  }
}

const DEEP_LIST: Workload = {
  name: "list, deep: GET users (limit 100, offset 99,000)",
  request: () => ({ method: "GET", path: "/api/v1/users?limit=100&offset=99000" }),
};

/** Each target's cursor of a deep page (keyset paging), by port: read once before the measurement. */
const deepCursors = new Map<number, string>();
const DEEP_CURSOR_LIST: Workload = {
  name: "list, deep by cursor: GET users (limit 100, the cursor after 99,000)",
  request: (target) => ({ method: "GET", path: `/api/v1/users?limit=100&cursor=${encodeURIComponent(deepCursors.get(target.port)!)}` }),
};

/**
 * The `next_cursor` of the page that ends at `depth` users: at 99,000 on the big database; where
 * the small one has fewer, the page after its first 100 (a cursor page is a cursor page however deep).
 */
async function readDeepCursor(target: RunningTarget, depth: number): Promise<void> {
  const page = async (offset: number) => {
    const response = await fetch(`http://127.0.0.1:${target.port}/api/v1/users?limit=100&offset=${offset}`, {
      headers: { Authorization: `Bearer ${BENCH_KEY}` },
    });
    return ((await response.json()) as { next_cursor: string | null }).next_cursor;
  };
  const cursor = (await page(depth - 100)) ?? (await page(0));
  if (!cursor) throw new Error(`the server on port ${target.port} gave no next_cursor`);
  deepCursors.set(target.port, cursor);
}

const cluster = await startCluster();
const lines: string[] = [];
const fmt = (m: Measurement) => `${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${m.non2xx}`;
const running: RunningTarget[] = [];
const started = async (env: NodeJS.ProcessEnv) => {
  const target = await startReference(env);
  running.push(target);
  return target;
};
const stopAll = async () => {
  for (const target of running.splice(0)) await stop(target);
};
try {
  const postgresVersion = execFileSync("/usr/lib/postgresql/15/bin/postgres", ["--version"], { encoding: "utf8" }).trim();
  const date = new Date().toISOString().slice(0, 10);
  lines.push(`# PostgreSQL benchmark results, ${date}`, "");
  lines.push(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${postgresVersion} (a throwaway cluster with fsync off, on the same machine as the servers and autocannon: all share the cores).`,
  );
  lines.push(
    `Command: \`npm run bench:postgres -- --duration ${DURATION} --runs ${RUNS}\` (autocannon; validation on; subjects taking turns round by round, ${RUNS} rounds of ${DURATION} s after a warm-up run; the median round).`,
    "",
  );

  // 1. PostgreSQL-backed against memory-backed.
  console.log("\n1. PostgreSQL-backed against memory-backed");
  const memory = await started({});
  const onPostgres = await started({ DATABASE_URL: await freshDatabase(cluster.databaseUrl) });
  const backed = await compare(
    { memory: alone(memory, CONNECTIONS), PostgreSQL: withDatabaseCpu(alone(onPostgres, CONNECTIONS)) },
    WORKLOADS,
  );
  await stopAll();
  lines.push(`## PostgreSQL-backed against memory-backed (${CONNECTIONS} connections)`, "");
  lines.push(
    "| Workload | memory req/s | p50 ms | p99 ms | PostgreSQL req/s | p50 ms | p99 ms | non-2xx | PG / memory | target | met | CPU µs per request: server on memory | server on PostgreSQL | PostgreSQL itself |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
  );
  const targets = new Map([
    [READ.name, 0.5],
    [WRITE.name, 0.35],
    [LIST.name, 0.5],
  ]);
  for (const w of WORKLOADS) {
    const m = backed.get("memory")!.get(w.name)!;
    const p = backed.get("PostgreSQL")!.get(w.name)!;
    const ratio = p.rps / m.rps;
    const target = targets.get(w.name);
    lines.push(
      `| ${w.name} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${Math.round(p.rps)} | ${p.p50} | ${p.p99} | ${m.non2xx + p.non2xx} | ${ratio.toFixed(2)} | ${target ? `≥ ${target}` : "none"} | ${target ? (ratio >= target ? "yes" : "no") : ""} | ${m.cpuUsPerRequest.toFixed(0)} | ${p.cpuUsPerRequest.toFixed(0)} | ${p.databaseCpuUsPerRequest!.toFixed(0)} |`,
    );
  }
  lines.push("");
  const memoryRead = backed.get("memory")!.get(READ.name)!;
  const postgresRead = backed.get("PostgreSQL")!.get(READ.name)!;
  const serverCpuRatio = postgresRead.cpuUsPerRequest / memoryRead.cpuUsPerRequest;
  const databaseCpu = postgresRead.databaseCpuUsPerRequest!;
  lines.push(
    `CPU per read: the server on PostgreSQL spends ${serverCpuRatio.toFixed(2)} times its CPU on memory (target ≤ 1.5: ${serverCpuRatio <= 1.5 ? "met" : "not met"}); PostgreSQL spends ${databaseCpu.toFixed(0)} µs per read (target ≤ 100: ${databaseCpu <= 100 ? "met" : "not met"}).`,
    "",
  );

  // 2. Two instances on one database against one.
  console.log("\n2. Two instances against one");
  const shared = await freshDatabase(cluster.databaseUrl);
  const first = await started({ DATABASE_URL: shared });
  const second = await started({ DATABASE_URL: shared, SEEDED: seededBy(first) });
  const instances = await compare(
    { one: withDatabaseCpu(alone(first, CONNECTIONS)), two: withDatabaseCpu(together([first, second], CONNECTIONS)) },
    WORKLOADS,
  );
  await stopAll();
  lines.push(`## Two instances on one database against one (${CONNECTIONS} connections in all, split over the instances)`, "");
  lines.push(
    "| Workload | one req/s | p50 ms | p99 ms | non-2xx | two req/s | p50 ms | p99 ms | non-2xx | two / one | CPU µs per request, one: server + PostgreSQL | two: servers + PostgreSQL | requests per second per core, servers and database together (two) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const w of WORKLOADS) {
    const one = instances.get("one")!.get(w.name)!;
    const two = instances.get("two")!.get(w.name)!;
    const cpuOf = (m: Measurement & { databaseCpuUsPerRequest?: number }) => m.cpuUsPerRequest + m.databaseCpuUsPerRequest!;
    lines.push(
      `| ${w.name} | ${fmt(one)} | ${fmt(two)} | ${(two.rps / one.rps).toFixed(2)} | ${one.cpuUsPerRequest.toFixed(0)} + ${one.databaseCpuUsPerRequest!.toFixed(0)} | ${two.cpuUsPerRequest.toFixed(0)} + ${two.databaseCpuUsPerRequest!.toFixed(0)} | ${Math.round(1e6 / cpuOf(two))} |`,
    );
  }
  lines.push("");

  // 3. Scale: 1,000,000 records and 100,000 users against 1,000 records.
  console.log("\n3. Scale");
  const smallUrl = await freshDatabase(cluster.databaseUrl);
  const small = await started({ DATABASE_URL: smallUrl });
  await grow(smallUrl, 240, 1_000);
  const bigUrl = await freshDatabase(cluster.databaseUrl);
  const big = await started({ DATABASE_URL: bigUrl });
  const seedStart = performance.now();
  await grow(bigUrl, 100_000, 1_000_000);
  const seedSeconds = ((performance.now() - seedStart) / 1000).toFixed(0);
  await readDeepCursor(small, 99_000);
  await readDeepCursor(big, 99_000);
  const scaleWorkloads = [READ, WRITE, LIST, DEEP_LIST, DEEP_CURSOR_LIST];
  const scale = await compare(
    { "1,000 records": alone(small, LATENCY_CONNECTIONS), "1,000,000 records": alone(big, LATENCY_CONNECTIONS) },
    scaleWorkloads,
  );
  await stopAll();
  lines.push(
    `## Latency at 1,000,000 records and 100,000 users against 1,000 records (${LATENCY_CONNECTIONS} connections)`,
    "",
    `Small: 240 users, about 1,000 records. Big: 100,000 users of the listed partner, 100,000 domains, 1,000,000 records (seeded by SQL in ${seedSeconds} s, the trigger-kept counts checked). The read hits a domain of 5 records; the writes spread over the 1,000 write domains, adding their records to both databases as the run goes (so the small one ends with some thousands); the list is the first page of the partner with all the users, the deep list its page at offset 99,000 (past the end of the small database's users: an empty page), the deep list by cursor the same page reached by the \`next_cursor\` of the page before it (on the small database, the page after its first 100 users).`,
    "",
  );
  lines.push(
    "| Workload | 1,000: req/s | p50 ms | p99 ms | non-2xx | 1M: req/s | p50 ms | p99 ms | non-2xx | p50 1M / 1,000 | p99 1M / 1,000 | within 1.5× |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  );
  for (const w of scaleWorkloads) {
    const s = scale.get("1,000 records")!.get(w.name)!;
    const b = scale.get("1,000,000 records")!.get(w.name)!;
    const p50 = b.p50 / s.p50;
    const p99 = b.p99 / s.p99;
    lines.push(
      `| ${w.name} | ${fmt(s)} | ${fmt(b)} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(p50, p99) <= 1.5 ? "yes" : "no"} |`,
    );
  }
  lines.push("");

  // 4. Pool size.
  console.log("\n4. Pool size");
  const poolUrl = await freshDatabase(cluster.databaseUrl);
  const pools: Record<string, Subject> = {};
  let seeder: RunningTarget | undefined;
  for (const size of POOL_SIZES) {
    const target = await started({
      DATABASE_URL: poolUrl,
      PARTNER_API_DB_POOL_SIZE: String(size),
      ...(seeder ? { SEEDED: seededBy(seeder) } : {}),
    });
    seeder ??= target;
    pools[`pool ${size}`] = alone(target, CONNECTIONS);
  }
  const bySize = await compare(pools, [READ, WRITE]);
  await stopAll();
  lines.push(`## Throughput by pool size (PARTNER_API_DB_POOL_SIZE, one instance, ${CONNECTIONS} connections)`, "");
  lines.push(
    "| Pool | read req/s | p50 ms | p99 ms | non-2xx | write req/s | p50 ms | p99 ms | non-2xx |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const [name, byWorkload] of bySize)
    lines.push(`| ${name} | ${fmt(byWorkload.get(READ.name)!)} | ${fmt(byWorkload.get(WRITE.name)!)} |`);
  lines.push("");
} finally {
  await stopAll();
  stopCluster(cluster.directory);
}
const out = values.out ?? `bench/results/${new Date().toISOString().slice(0, 10)}-postgres.md`;
writeFileSync(out, lines.join("\n"));
console.log(`\nwrote ${out}`);
