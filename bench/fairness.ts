/**
 * `npm run bench:fairness`: one partner cannot starve another. A light partner's latency (a read:
 * GET a domain; a write: POST a user, one transaction) is measured idle, then while a heavy
 * partner runs its heaviest documented workload: DNS change sets of 999 creates (then 999 deletes)
 * on ten domains at once, each domain's next one as soon as the last is answered, paced to the
 * description's limit of 60 bulk requests a minute, with 16 webhook endpoints taking every event
 * (the most a partner may register; receivers in this process), and again with none (the change
 * sets without their deliveries). On memory and on PostgreSQL (a throwaway PostgreSQL 15 cluster,
 * pool of 10). The target: the light partner's p99 under load within 2x of its idle p99. Options:
 * --duration S (per measurement, default 15), --connections N (the light partner's, default 4),
 * --endpoints LIST (default 16,0), --stores LIST (default memory,postgres), --out FILE (default
 * bench/results/<date>-fairness.md).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { freshDatabase } from "../scripts/lib/fresh-database.js";
import { startCluster, stopCluster } from "../scripts/lib/postgres-cluster.js";
import { startPrintingTarget, stop, type RunningTarget } from "./lib/processes.js";
import { HEAVY_KEY, LIGHT_KEY } from "./targets/fairness-partners.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "15" },
    connections: { type: "string", default: "4" },
    endpoints: { type: "string", default: "16,0" },
    stores: { type: "string", default: "memory,postgres" },
    out: { type: "string" },
  },
});
const DURATION = Number(values.duration);
const LIGHT_CONNECTIONS = Number(values.connections);
/** The description's dns_bulk limit: 60 a minute. */
const BULK_PER_MINUTE = 60;
const HEAVY_DOMAINS = 10;
const ENDPOINT_COUNTS = values.endpoints.split(",").map(Number);
const STORES = values.stores.split(",");
const CHANGES = 999;
/** The heavy load runs this long before the light partner is measured, so the backlog it makes is there. */
const HEAVY_WARM_UP_MS = 10_000;

/** A receiver answering every delivery 204 at once, counting them. */
async function startReceiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function call(target: RunningTarget, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${target.port}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function registerDomains(target: RunningTarget, key: string, user: string, prefix: string, n: number): Promise<string[]> {
  const created = await call(target, key, "POST", "/api/v1/users", { user_identifier: user });
  if (created.status !== 201) throw new Error(`user: ${created.status} ${JSON.stringify(created.body)}`);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const domain = await call(target, key, "POST", "/api/v1/sandbox/domains", { user_identifier: user, domain_name: `${prefix}-${i}.com` });
    if (domain.status !== 201) throw new Error(`domain: ${domain.status} ${JSON.stringify(domain.body)}`);
    ids.push(domain.body.id);
  }
  return ids;
}

interface Latency {
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
}

/** The light partner's latency on one workload for DURATION seconds. */
async function measureLight(target: RunningTarget, request: autocannon.Request): Promise<Latency> {
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: LIGHT_CONNECTIONS,
    duration: DURATION,
    headers: { Authorization: `Bearer ${LIGHT_KEY}`, "Content-Type": "application/json" },
    requests: [request],
  });
  return { p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, non2xx: result.non2xx + result.errors };
}

/**
 * The heavy partner's load until `stop`: a worker per domain alternating 999 creates and 999
 * deletes, every request waiting for a token of the 60-a-minute limit (a burst of ten at the start,
 * as a fixed window allows).
 */
function heavyLoad(target: RunningTarget, domainIds: string[]) {
  let stopped = false;
  let tokens = HEAVY_DOMAINS;
  const refill = setInterval(() => (tokens = Math.min(BULK_PER_MINUTE, tokens + 1)), 60_000 / BULK_PER_MINUTE);
  const statuses = new Map<number, number>();
  const durations: number[] = [];
  const names = Array.from({ length: CHANGES }, (_, i) => `h${i}`);
  const worker = async (domainId: string) => {
    for (let creating = true; !stopped; creating = !creating) {
      while (tokens < 1 && !stopped) await new Promise((resolve) => setTimeout(resolve, 50));
      if (stopped) return;
      tokens--;
      const body = creating
        ? { creates: names.map((name) => ({ type: "TXT", name, content: "fairness" })) }
        : { deletes: names.map((name) => ({ name, type: "TXT" })) };
      const started = performance.now();
      const { status } = await call(target, HEAVY_KEY, "POST", `/api/v1/domains/${domainId}/dns/changes`, body).catch(() => ({
        status: 0,
      }));
      durations.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      // A refused set leaves the zone as it was: the same one is sent again.
      if (status !== 200) creating = !creating;
    }
  };
  const workers = domainIds.map(worker);
  return {
    async stop() {
      stopped = true;
      clearInterval(refill);
      await Promise.all(workers);
      durations.sort((a, b) => a - b);
      return { statuses, count: durations.length, p50: durations[Math.floor(durations.length / 2)] ?? 0, max: durations.at(-1) ?? 0 };
    },
  };
}

interface StoreResult {
  store: string;
  endpoints: number;
  idle: Record<string, Latency>;
  loaded: Record<string, Latency>;
  heavy: Awaited<ReturnType<ReturnType<typeof heavyLoad>["stop"]>>;
  delivered: number;
}

async function measureStore(store: string, endpoints: number, env: NodeJS.ProcessEnv): Promise<StoreResult> {
  const receiver = await startReceiver();
  const target = await startPrintingTarget("node", ["--import", "tsx", "bench/targets/fairness-server.ts"], env);
  const label = `${store}, ${endpoints} endpoints`;
  try {
    const heavyDomains = await registerDomains(target, HEAVY_KEY, "heavy-user", "heavy", HEAVY_DOMAINS);
    for (let i = 0; i < endpoints; i++) {
      const endpoint = await call(target, HEAVY_KEY, "POST", "/api/v1/webhook_endpoints", { url: receiver.url });
      if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
    }
    const [readDomain] = await registerDomains(target, LIGHT_KEY, "light-user", "light", 1);
    let sequence = 0;
    const workloads: Record<string, autocannon.Request> = {
      "read: GET domain": { method: "GET", path: `/api/v1/domains/${readDomain}` },
      // A write that never runs into a cap (users have none), each one transaction.
      "write: POST user": {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          path: "/api/v1/users",
          body: JSON.stringify({ user_identifier: `light-${++sequence}` }),
        }),
      },
    };
    const idle: Record<string, Latency> = {};
    const loaded: Record<string, Latency> = {};
    const show = (when: string, name: string, m: Latency) =>
      console.log(`${label} | ${when} | ${name}: p50 ${m.p50} ms, p99 ${m.p99} ms, ${m.requests} requests, ${m.non2xx} non-2xx`);
    // A first pass warms the server (compiled validators, JIT), measured again after.
    for (const request of Object.values(workloads)) await measureLight(target, request);
    for (const [name, request] of Object.entries(workloads)) show("idle", name, (idle[name] = await measureLight(target, request)));
    const heavy = heavyLoad(target, heavyDomains);
    await new Promise((resolve) => setTimeout(resolve, HEAVY_WARM_UP_MS));
    for (const [name, request] of Object.entries(workloads)) show("heavy load", name, (loaded[name] = await measureLight(target, request)));
    const heavyResult = await heavy.stop();
    console.log(`${label} | heavy: ${heavyResult.count} change sets, statuses ${JSON.stringify([...heavyResult.statuses])}`);
    return { store, endpoints, idle, loaded, heavy: heavyResult, delivered: receiver.received() };
  } finally {
    await stop(target);
    await receiver.stop();
  }
}

function report(results: StoreResult[]): string {
  const lines = [
    `# Fairness: a light partner's latency while a heavy partner runs its heaviest documented workload (${new Date().toISOString().slice(0, 10)})`,
    "",
    `Command: \`npm run bench:fairness -- --duration ${DURATION} --connections ${LIGHT_CONNECTIONS}\`. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, shared with other work (load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(", ")}).`,
    "",
    `Heavy partner: ${HEAVY_DOMAINS} domains, each with one worker alternating a change set of ${CHANGES} creates and one of ${CHANGES} deletes, paced to ${BULK_PER_MINUTE} bulk requests a minute (ten at once at the start), with ${ENDPOINT_COUNTS.join(" or ")} webhook endpoints taking every event (receivers in the benchmark's process answering 204 at once). Light partner: ${LIGHT_CONNECTIONS} connections for ${DURATION} s per workload, idle first, then after ${HEAVY_WARM_UP_MS / 1000} s of the heavy load. PostgreSQL: a throwaway 15 cluster on the same machine, pool of 10. Each row is a fresh server (and database).`,
    "",
    "| Store | Heavy partner's endpoints | Light workload | idle p50 | idle p99 | loaded p50 | loaded p99 | p99 ratio | target ≤ 2 | light non-2xx (idle / loaded) |",
    "| ----- | ------------------------: | -------------- | -------: | -------: | ---------: | ---------: | --------: | ---------- | ----------------------------- |",
  ];
  for (const result of results)
    for (const name of Object.keys(result.idle)) {
      const idle = result.idle[name]!;
      const loaded = result.loaded[name]!;
      const ratio = loaded.p99 / Math.max(1, idle.p99);
      lines.push(
        `| ${result.store} | ${result.endpoints} | ${name} | ${idle.p50} ms | ${idle.p99} ms | ${loaded.p50} ms | ${loaded.p99} ms | ${ratio.toFixed(2)} | ${ratio <= 2 ? "met" : "not met"} | ${idle.non2xx} / ${loaded.non2xx} |`,
      );
    }
  lines.push(
    "",
    "| Store | Heavy partner's endpoints | heavy change sets answered | their statuses | median time | longest | deliveries received |",
    "| ----- | ------------------------: | -------------------------: | -------------- | ----------: | ------: | ------------------: |",
  );
  for (const { store, endpoints, heavy, delivered } of results)
    lines.push(
      `| ${store} | ${endpoints} | ${heavy.count} | ${[...heavy.statuses].map(([status, n]) => `${status}: ${n}`).join(", ")} | ${Math.round(heavy.p50)} ms | ${Math.round(heavy.max)} ms | ${delivered} |`,
    );
  return `${lines.join("\n")}\n`;
}

const results: StoreResult[] = [];
if (STORES.includes("memory")) for (const endpoints of ENDPOINT_COUNTS) results.push(await measureStore("memory", endpoints, {}));
if (STORES.includes("postgres")) {
  const cluster = await startCluster();
  try {
    for (const endpoints of ENDPOINT_COUNTS) {
      const databaseUrl = await freshDatabase(cluster.databaseUrl, "partner_api_fairness");
      results.push(await measureStore("postgres", endpoints, { DATABASE_URL: databaseUrl, PARTNER_API_DB_POOL_SIZE: "10" }));
    }
  } finally {
    stopCluster(cluster.directory);
  }
}
const out = values.out ?? `bench/results/${new Date().toISOString().slice(0, 10)}-fairness.md`;
writeFileSync(out, report(results));
console.log(`written ${out}`);
