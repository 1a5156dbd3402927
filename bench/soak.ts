/**
 * `npm run bench:soak`: the reference server under the heaviest load its rate limits allow, for
 * long enough to show whether what it keeps stays bounded (issue 31). Each partner, on two keys,
 * sends as many DNS change sets as its `dns_bulk` limit lets through (each deleting the 999 records
 * the one before it made and creating 999 more: about 2,000 events), fills the rest of its
 * overall limit with reads, and floods the server with requests beyond the limits (answered 429)
 * from both keys on three routes until its windows open again. The periodic sweep runs as it runs
 * in `npm start`. Once a minute the load pauses while the requests in flight finish, the process
 * collects its garbage in full (it runs with --expose-gc) and records the heap in use, so what is
 * measured is what the server keeps; on PostgreSQL also the size of the request log and event
 * tables with their indexes (pg_total_relation_size).
 *
 * Pass: after the first minute, the heap never exceeds the first minute's figure by 10 % or more
 * (and on PostgreSQL, neither table's size).
 *
 * Before the load, each partner's request log and event history are filled to their retention's
 * count (--prefill, on unless `--prefill false`), as hours at the limits would have filled them:
 * the request log's count is ten hours of a partner's accepted requests, which no short run would
 * reach, so without it a run would measure the filling, not the bound.
 *
 * Options: --duration S (default 600), --store memory|pglite|postgres (default memory; postgres
 * uses DATABASE_URL, or a throwaway cluster as bench/postgres.ts starts), --partners N (default 2),
 * --sample S (seconds between measurements, default 60), --prefill true|false (default true),
 * --out FILE (default bench/results/<date>-soak-<store>.md).
 */
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { freshDatabase } from "../scripts/lib/fresh-database.js";
import { startCluster, stopCluster } from "../scripts/lib/postgres-cluster.js";
import { createApp } from "../server/assembly/app.js";
import { EVENT_RETENTION } from "../server/domain/events/event-store.js";
import { REQUEST_LOG_RETENTION } from "../server/partners/request-history/request-history-store.js";
import { findTld } from "../server/domain/catalog/tlds.js";
import { registerDomain } from "../server/domain/domains/registration.js";
import { DEFAULT_RATE_LIMITS } from "../server/platform/rate-limits/policy.js";
import { startDueChangeSweep, SWEEP_INTERVAL_MS } from "../server/application/sweep.js";
import { openPostgresPersistence } from "../server/store/postgres/index.js";
import type { PostgresPersistence } from "../server/store/postgres/postgres-persistence.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "600" },
    store: { type: "string", default: "memory" },
    partners: { type: "string", default: "2" },
    sample: { type: "string", default: "60" },
    prefill: { type: "string", default: "true" },
    out: { type: "string" },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const SAMPLE_MS = Number(values.sample) * 1000;
const PARTNERS = Number(values.partners);
const PREFILL = values.prefill !== "false";
const STORE = values.store as "memory" | "pglite" | "postgres";
if (!["memory", "pglite", "postgres"].includes(STORE)) throw new Error(`--store must be memory, pglite or postgres, not ${STORE}`);
if (typeof global.gc !== "function") throw new Error("run with node --expose-gc (npm run bench:soak does)");
const gc = global.gc;

/** Records a change set creates (one more operation deletes the ones before): the most one request may change. */
const RECORDS_PER_CHANGE_SET = 999;
/** Requests beyond the limits in flight at once per partner: enough to keep a core busy answering 429. */
const FLOOD_CONCURRENCY = 8;
const FLOOD_ROUTES = (domainId: string) => ["/api/v1/domains/tlds", `/api/v1/domains/${domainId}/dns`, "/api/v1/users"];

const keyOf = (partner: number, key: number) => `sk_sandbox_soakPartner${partner}Key${key}`.padEnd(41, "0");

// ---------------------------------------------------------------------------------------------
// The server, in this process: its heap is the one measured.

let cluster: { directory: string } | null = null;
let persistence: PostgresPersistence | undefined;
if (STORE === "pglite") persistence = await openPostgresPersistence({ inMemory: true }, { environment: "sandbox", migrateFirst: true });
if (STORE === "postgres") {
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const started = await startCluster();
    cluster = started;
    databaseUrl = await freshDatabase(started.databaseUrl, "partner_api_soak");
  }
  persistence = await openPostgresPersistence({ databaseUrl }, { environment: "sandbox" });
}

const partners = Array.from({ length: PARTNERS }, (_, p) => ({ id: `soak_${p}`, name: `Soak partner ${p}` }));
const { app, services, requests } = createApp({
  persistence,
  environment: "sandbox",
  embedBaseUrl: "http://127.0.0.1:3001",
  partners: partners.map((partner, p) => ({ partner, keys: [keyOf(p, 0), keyOf(p, 1)] })),
  // The published limits: the highest rate they allow is the point.
  rateLimits: DEFAULT_RATE_LIMITS,
});

const domainIds: string[] = [];
for (const partner of partners) {
  const now = services.clock.now();
  await services.store.saveUser({
    partnerId: partner.id,
    userIdentifier: "soak_user",
    email: null,
    createdAt: now,
    lastLogin: now,
    updatedAt: now,
    totalSpent: 0,
  });
  const domain = await registerDomain(services.store, services.clock, {
    partnerId: partner.id,
    userIdentifier: "soak_user",
    name: `${partner.id.replace("_", "-")}.com`,
    tld: findTld("com")!,
    years: 1,
    charge: 1299,
  });
  domainIds.push(domain.id);
}

/** Each partner's log and history at their retention's count, the newest a minute old: a server that ran at the limits for hours. */
async function prefill(): Promise<void> {
  const CHUNK = 5_000;
  const newest = services.clock.now().getTime() - 60_000;
  for (const [p, partner] of partners.entries()) {
    for (let from = 0; from < REQUEST_LOG_RETENTION.keepLatest; from += CHUNK)
      await services.persistence.requestHistory.append(
        Array.from({ length: Math.min(CHUNK, REQUEST_LOG_RETENTION.keepLatest - from) }, (_, i) => ({
          partnerId: partner.id,
          environment: "sandbox" as const,
          at: new Date(newest - (REQUEST_LOG_RETENTION.keepLatest - from - i) * 1_000),
          method: "POST",
          route: "/api/v1/domains/{domain_id}/dns/changes",
          status: 200,
          requestId: `req_prefill${p}x${from + i}`,
          durationMs: 150,
          keyName: "Soak key",
        })),
      );
    for (let from = 0; from < EVENT_RETENTION.keepLatest; from += CHUNK)
      await services.persistence.events.saveEvents(
        Array.from({ length: Math.min(CHUNK, EVENT_RETENTION.keepLatest - from) }, (_, i) => {
          const at = new Date(newest - (EVENT_RETENTION.keepLatest - from - i) * 10);
          const id = `${from + i}`.padStart(12, "0");
          return {
            id: `evt_prefill${p}x${id}`,
            partnerId: partner.id,
            type: "dns_record.created" as const,
            createdAt: at,
            payload: {
              domain_id: domainIds[p],
              data: {
                id: `rec_prefill${id}`,
                type: "TXT",
                name: "soak",
                content: `soak 0 ${from + i}`,
                ttl: 3600,
                priority: null,
                created_at: at.toISOString(),
                updated_at: at.toISOString(),
              },
            },
          };
        }),
      );
  }
}
if (PREFILL) await prefill();

const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const sweepErrors: unknown[] = [];
const stopSweep = startDueChangeSweep(services, (error) => sweepErrors.push(error));

// ---------------------------------------------------------------------------------------------
// The load.

interface Tally {
  accepted: number;
  changeSets: number;
  refused: number;
  failed: number;
}
const tallies: Tally[] = partners.map(() => ({ accepted: 0, changeSets: 0, refused: 0, failed: 0 }));
/** Answers other than 2xx and 429, by status and error code, to say what failed. */
const failures = new Map<string, number>();
const errorCodes = new WeakMap<Response, string>();
const started = Date.now();
const ends = started + DURATION_MS;

/** The bucket a 429 names (the RateLimit field) and when to try again, in ms since the epoch. */
function refusal(response: Response): { bucket: string; until: number } {
  const bucket = /^"([^"]+)"/.exec(response.headers.get("ratelimit") ?? "")?.[1] ?? "";
  return { bucket, until: Date.now() + Number(response.headers.get("retry-after") ?? "1") * 1000 };
}

/**
 * Requests wait while a measurement runs, and a measurement waits for the requests in flight: the
 * heap measured is what the server keeps, not the bodies and events of the requests it is answering.
 */
let paused: Promise<void> | null = null;
let inFlight = 0;
let drained: (() => void) | null = null;

async function send(key: string, path: string, body?: unknown): Promise<Response> {
  while (paused !== null) await paused;
  inFlight++;
  try {
    return await sendNow(key, path, body);
  } finally {
    inFlight--;
    if (inFlight === 0) drained?.();
  }
}

async function sendNow(key: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.text();
  if (response.status >= 400 && response.status !== 429)
    errorCodes.set(response, /"code"\s*:\s*"([^"]+)"/.exec(answer)?.[1] ?? answer.slice(0, 80));
  return response;
}

/** One partner: change sets while `dns_bulk` lets them through, reads while the overall limit does, a flood of 429s while neither does. */
async function drivePartner(p: number): Promise<void> {
  const tally = tallies[p]!;
  const domainId = domainIds[p]!;
  let bulkUntil = 0;
  let overallUntil = 0;
  let round = 0;
  let flooded = 0;
  const count = (response: Response) => {
    if (response.status === 429) tally.refused++;
    else if (response.status >= 400) {
      tally.failed++;
      const what = `${response.status} ${errorCodes.get(response) ?? ""}`.trim();
      failures.set(what, (failures.get(what) ?? 0) + 1);
    } else tally.accepted++;
  };
  while (Date.now() < ends) {
    const key = keyOf(p, round % 2);
    if (Date.now() >= overallUntil) {
      round++;
      const bulk = Date.now() >= bulkUntil;
      const response = bulk
        ? await send(key, `/api/v1/domains/${domainId}/dns/changes`, {
            deletes: [{ name: "soak", type: "TXT" }],
            creates: Array.from({ length: RECORDS_PER_CHANGE_SET }, (_, i) => ({
              type: "TXT",
              name: "soak",
              content: `soak ${round} ${i}`,
              ttl: 3600,
            })),
          })
        : await send(key, `/api/v1/domains/${domainId}/dns?limit=1`);
      count(response);
      if (bulk && response.ok) tally.changeSets++;
      if (response.status === 429) {
        const { bucket, until } = refusal(response);
        if (bucket === "dns_bulk") bulkUntil = until;
        else {
          overallUntil = until;
          // The windows open together: change sets go first then, or reads would take the whole budget.
          bulkUntil = Math.min(bulkUntil, overallUntil);
        }
      }
      continue;
    }
    // Beyond the limits: every answer is a 429, which the request log counts rather than keeps.
    const routes = FLOOD_ROUTES(domainId);
    const answers = await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, (_, i) => send(keyOf(p, (flooded + i) % 2), routes[(flooded + i) % routes.length]!)),
    );
    flooded += FLOOD_CONCURRENCY;
    answers.forEach(count);
  }
}

// ---------------------------------------------------------------------------------------------
// The measurements.

interface Sample {
  minute: number;
  heapMiB: number;
  rssMiB: number;
  accepted: number;
  changeSets: number;
  refused: number;
  failed: number;
  requestLogMiB?: number;
  eventsMiB?: number;
  eventRows?: number;
  requestLogRows?: number;
}
const samples: Sample[] = [];
const MiB = 1024 * 1024;

async function measure(): Promise<void> {
  let resume = () => {};
  paused = new Promise((resolve) => {
    resume = resolve;
  });
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  drained = null;
  try {
    await measureQuiet();
  } finally {
    paused = null;
    resume();
  }
}

async function measureQuiet(): Promise<void> {
  await requests.flush();
  gc();
  const sample: Sample = {
    minute: Math.round(((Date.now() - started) / 60_000) * 10) / 10,
    heapMiB: process.memoryUsage().heapUsed / MiB,
    rssMiB: process.memoryUsage().rss / MiB,
    accepted: tallies.reduce((sum, t) => sum + t.accepted, 0),
    changeSets: tallies.reduce((sum, t) => sum + t.changeSets, 0),
    refused: tallies.reduce((sum, t) => sum + t.refused, 0),
    failed: tallies.reduce((sum, t) => sum + t.failed, 0),
  };
  if (persistence) {
    const [row] = await persistence.sql.query<{ log: number; events: number; log_rows: number; event_rows: number }>(
      `SELECT pg_total_relation_size('request_log')::float8 AS log, pg_total_relation_size('events')::float8 AS events,
              (SELECT count(*) FROM request_log)::integer AS log_rows, (SELECT count(*) FROM events)::integer AS event_rows`,
    );
    Object.assign(sample, {
      requestLogMiB: row!.log / MiB,
      eventsMiB: row!.events / MiB,
      requestLogRows: row!.log_rows,
      eventRows: row!.event_rows,
    });
  }
  samples.push(sample);
  console.log(
    `${sample.minute} min: heap ${sample.heapMiB.toFixed(1)} MiB, rss ${sample.rssMiB.toFixed(0)} MiB, ` +
      `${sample.accepted} accepted (${sample.changeSets} change sets), ${sample.refused} refused, ${sample.failed} failed` +
      (persistence
        ? `; request_log ${sample.requestLogMiB!.toFixed(1)} MiB (${sample.requestLogRows} rows), events ${sample.eventsMiB!.toFixed(1)} MiB (${sample.eventRows} rows)`
        : ""),
  );
}

await measure();
const load = Promise.all(partners.map((_, p) => drivePartner(p)));
const sampler = setInterval(() => void measure(), SAMPLE_MS);
await load;
clearInterval(sampler);
await measure();

stopSweep();
await new Promise((resolve) => server.close(resolve));
server.closeAllConnections();

// ---------------------------------------------------------------------------------------------
// The verdict and the results file.

/** Growth of a figure over its value at `fromMinute`, at its highest after it, in %. */
function growth(
  pick: (sample: Sample) => number | undefined,
  fromMinute = 1,
): { minute: number; first: number; highest: number; percent: number } | null {
  const first = samples.find((sample) => sample.minute >= fromMinute);
  if (!first || pick(first) === undefined) return null;
  const later = samples.filter((sample) => sample.minute > first.minute);
  const highest = Math.max(pick(first)!, ...later.map((sample) => pick(sample)!));
  return { minute: first.minute, first: pick(first)!, highest, percent: ((highest - pick(first)!) / pick(first)!) * 100 };
}
/**
 * The tables are judged from the first measurement after the sweep's first pass (its first run ends
 * a minute in): before it, a table holds the minute's rows on top of the prefilled bound and nothing
 * was forgotten yet. Their growth over the first minute's figure is reported too.
 */
const AFTER_FIRST_SWEEP = 1 + SWEEP_INTERVAL_MS / 60_000;
const criteria = [
  ["heap after a full collection", growth((s) => s.heapMiB)],
  ...(persistence
    ? ([
        ["request_log, pg_total_relation_size", growth((s) => s.requestLogMiB, AFTER_FIRST_SWEEP)],
        ["events, pg_total_relation_size", growth((s) => s.eventsMiB, AFTER_FIRST_SWEEP)],
      ] as const)
    : []),
] as const;
const fromFirstMinute = persistence
  ? ([
      ["request_log", growth((s) => s.requestLogMiB)],
      ["events", growth((s) => s.eventsMiB)],
    ] as const)
  : [];
const passed = criteria.every(([, measured]) => measured !== null && measured.percent < 10);
const minutes = DURATION_MS / 60_000;
const perMinute = (n: number) => Math.round(n / minutes);
const last = samples.at(-1)!;

const date = new Date().toISOString().slice(0, 10);
const out = values.out ?? `bench/results/${date}-soak-${STORE}.md`;
const storeName = {
  memory: "the memory store",
  pglite: "PGlite (in memory)",
  postgres: `PostgreSQL (${cluster ? "a throwaway cluster" : "DATABASE_URL"})`,
}[STORE];
writeFileSync(
  out,
  `# Soak: ${storeName}, ${minutes} minutes at the published rate limits (${date})

\`npm run bench:soak -- --store ${STORE} --duration ${values.duration} --partners ${PARTNERS}\` on Node ${process.version},
${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GiB; load average at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")} (a machine shared with other work: the rates reached are what it allowed, not the limits' ceiling).

${PREFILL ? `Each partner's request log and event history filled to their retention's count (${REQUEST_LOG_RETENTION.keepLatest} entries, ${EVENT_RETENTION.keepLatest} events) before the load.` : "Nothing filled before the load."}
${PARTNERS} partners, two keys each; per partner: DNS change sets of ${RECORDS_PER_CHANGE_SET} creates and one record-set delete
(about ${2 * RECORDS_PER_CHANGE_SET} events each) while \`dns_bulk\` allows, reads while the overall limit allows, then
${FLOOD_CONCURRENCY} requests at a time beyond the limits (429) on ${FLOOD_ROUTES("x").length} routes until the windows open. The sweep runs every minute.

Reached, per minute, all partners: ${perMinute(last.accepted)} requests accepted (${perMinute(last.changeSets)} change sets),
${perMinute(last.refused)} refused with 429, ${perMinute(last.failed)} other errors${
    failures.size > 0 ? ` (in all: ${[...failures].map(([what, n]) => `${n} × ${what}`).join(", ")})` : ""
  }. ${sweepErrors.length} sweep errors${sweepErrors.length > 0 ? ` (first: ${String(sweepErrors[0])})` : ""}.

| minute | heap after full GC (MiB) | RSS (MiB) | accepted | change sets | refused (429) |${persistence ? " request_log (MiB, rows) | events (MiB, rows) |" : ""}
| ---: | ---: | ---: | ---: | ---: | ---: |${persistence ? " ---: | ---: |" : ""}
${samples
  .map(
    (s) =>
      `| ${s.minute} | ${s.heapMiB.toFixed(1)} | ${s.rssMiB.toFixed(0)} | ${s.accepted} | ${s.changeSets} | ${s.refused} |` +
      (persistence ? ` ${s.requestLogMiB!.toFixed(1)} (${s.requestLogRows}) | ${s.eventsMiB!.toFixed(1)} (${s.eventRows}) |` : ""),
  )
  .join("\n")}

Pass criterion: growth under 10 % over the figure at the first minute (the heap) or at minute ${AFTER_FIRST_SWEEP}, after the sweep's first pass (the tables), at any later measurement.

${criteria
  .map(([name, measured]) =>
    measured === null
      ? `- ${name}: not measured (the run ended before its first minute)`
      : `- ${name}: ${measured.first.toFixed(1)} MiB at minute ${measured.minute}, at most ${measured.highest.toFixed(1)} MiB after it: ${measured.percent >= 0 ? "+" : ""}${measured.percent.toFixed(1)} %`,
  )
  .join("\n")}
${fromFirstMinute
  .map(([name, measured]) =>
    measured === null
      ? ""
      : `- ${name} over its first minute's figure instead (before any retention pass): ${measured.first.toFixed(1)} MiB, at most ${measured.highest.toFixed(1)} MiB after it: ${measured.percent >= 0 ? "+" : ""}${measured.percent.toFixed(1)} %`,
  )
  .join("\n")}

**${passed ? "Passed" : "Failed"}.**
`,
);
console.log(`${passed ? "passed" : "FAILED"}; written to ${out}`);

await persistence?.close();
if (cluster) stopCluster(cluster.directory);
process.exit(passed ? 0 : 1);
