/**
 * `npm run bench:write-safety`: what write safety costs a write, as ratios measured in one run on
 * one machine against the reference server on memory, validating (autocannon, 50 connections,
 * taking turns round by round after a warm-up): a record created without an Idempotency-Key (the
 * baseline), the same with a new key each time (take the key, store the answer), a retry answered
 * from a stored answer (a replay), and a change set of 10 creates against 10 single creates. Each
 * measurement runs on a server of its own after a 2 s warm-up; the workloads take turns round by round.
 * Options: --duration S (default 5), --runs N (default 3), --out FILE (default bench/results/<date>-write-safety.md).
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { startReferenceServer, stop, type RunningTarget } from "./lib/processes.js";
import { type Measurement, measure, median, WRITE, type Workload } from "./lib/workloads.js";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, runs: { type: "string", default: "3" }, out: { type: "string" } },
});
const DURATION = Number(values.duration);
const RUNS = Number(values.runs);
const CONNECTIONS = 50;

let sequence = 0;
const WITH_NEW_KEY: Workload = {
  name: "write with a new Idempotency-Key",
  request: (target) => {
    const base = WRITE.request(target);
    return {
      ...base,
      setupRequest: (request, context) => {
        const made = (base.setupRequest as (r: typeof request, c: typeof context) => typeof request)(request, context);
        return { ...made, headers: { ...made.headers, "Idempotency-Key": `bench-${process.pid}-${++sequence}` } };
      },
    };
  },
};
const REPLAY: Workload = {
  name: "replay of a stored answer",
  request: (target) => ({
    method: "POST",
    path: `/api/v1/domains/${target.domainId}/dns`,
    headers: { "Idempotency-Key": `bench-replay-${process.pid}` },
    body: JSON.stringify({ type: "TXT", name: "replayed", content: "benchmark" }),
  }),
};
const CHANGE_SET: Workload = {
  name: "change set of 10 creates (per request)",
  request: (target) => ({
    method: "POST",
    setupRequest: (request) => {
      const n = ++sequence;
      const creates = Array.from({ length: 10 }, (_, i) => ({ type: "TXT", name: `c${process.pid}-${n}-${i}`, content: "benchmark" }));
      const domain = target.writeDomainIds[n % target.writeDomainIds.length];
      return { ...request, path: `/api/v1/domains/${domain}/dns/changes`, body: JSON.stringify({ creates }) };
    },
  }),
};
const WORKLOADS = [WRITE, WITH_NEW_KEY, REPLAY, CHANGE_SET];

/**
 * One measurement on a server of its own, freshly seeded: the writes of earlier ones would fill
 * the write domains up to their maximum of records, and later writes would measure refusals.
 */
async function measureFresh(workload: Workload, duration: number): Promise<Measurement> {
  const target: RunningTarget = await startReferenceServer({ VALIDATE: "1" });
  try {
    await measure(target, workload, 2, CONNECTIONS);
    return await measure(target, workload, duration, CONNECTIONS);
  } finally {
    await stop(target);
  }
}

async function main(): Promise<void> {
  const samples = new Map<string, Measurement[]>();
  for (let round = 1; round <= RUNS; round++) {
    for (const workload of WORKLOADS) {
      const m = await measureFresh(workload, DURATION);
      samples.set(workload.name, [...(samples.get(workload.name) ?? []), m]);
      console.log(
        `round ${round} | ${workload.name}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.non2xx ? `, ${m.non2xx} non-2xx` : ""}`,
      );
    }
  }
  const baseline = median(samples.get(WRITE.name)!).rps;
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `# Write safety: its cost per write (${date})`,
    "",
    `\`npm run bench:write-safety\` on ${cpus().length} cores, Node ${process.version}, the reference server on memory, validating;`,
    `${CONNECTIONS} connections, ${RUNS} rounds of ${DURATION} s taking turns, each on a fresh server after a 2 s warm-up; the median round of each.`,
    "",
    "| Workload | req/s | p50 ms | p99 ms | non-2xx | ratio to a write without a key |",
    "| -------- | ----: | -----: | -----: | ------: | -----------------------------: |",
    ...WORKLOADS.map((workload) => {
      const m = median(samples.get(workload.name)!);
      return `| ${workload.name} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${m.non2xx} | ${(m.rps / baseline).toFixed(2)} |`;
    }),
    "",
    "A change set request carries 10 records: per record it is the ratio times 10.",
  ];
  const out = values.out ?? `bench/results/${date}-write-safety.md`;
  writeFileSync(out, `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
}

await main();
