/**
 * `npm run bench`: throughput, latency and peak memory of the reference server against baselines
 * measured in the same run on the same machine, so the figures that matter are ratios:
 * node:http with a fixed body (the practical limit), Express 5 alone with the same body (the
 * ceiling of any Express server), the reference server without and with validation, and the
 * Prism mock on the same document; on a read, a write and a list. Each round also measures the
 * latency of one connection sending one request at a time to the validating server and to Express
 * alone. Then start-up time. Options: --duration S (per run, default 5), --runs N (default 3),
 * --out FILE (default bench/results/<date>.md).
 */
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { freePort } from "../scripts/lib/local-ports.js";
import { peakRssMiB, startPolledTarget, startPrintingTarget, startReferenceServer, stop, type RunningTarget } from "./lib/processes.js";
import { measureStartup, startupTable } from "./startup.js";
import { measureOneConnection, type OneConnectionLatency } from "./lib/one-connection.js";
import { type Measurement, measure as measureWorkload, median, type Workload, WORKLOADS } from "./lib/workloads.js";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, runs: { type: "string", default: "3" }, out: { type: "string" } },
});
const DURATION = Number(values.duration);
const RUNS = Number(values.runs);
const CONNECTIONS = 50;
/** The issue's targets (issue 22), checked in the report. */
const TARGET = { ofExpress: 0.5, ofPrism: 5, ofUnvalidated: 0.85, p99Ms: 12, oneConnectionP50Ms: 1, startupMs: 300 };
const ONE_CONNECTION_TARGETS = ["reference, validation on", "Express 5 alone, fixed body"];
const WARM_UP_S = 3;
const NODE_TSX = ["--import", "tsx"];

interface Target {
  name: string;
  start(): Promise<RunningTarget>;
}

const PRISM_PORT = await freePort();
const TARGETS: Target[] = [
  { name: "node:http, fixed body", start: () => startPrintingTarget("node", [...NODE_TSX, "bench/targets/bare-http.ts"]) },
  { name: "Express 5 alone, fixed body", start: () => startPrintingTarget("node", [...NODE_TSX, "bench/targets/bare-express.ts"]) },
  {
    name: "reference, validation off",
    start: () => startReferenceServer({ VALIDATE: "0" }),
  },
  {
    name: "reference, validation on",
    start: () => startReferenceServer({ VALIDATE: "1" }),
  },
  {
    name: "Prism mock (defaults)",
    start: () =>
      startPolledTarget(
        "node",
        ["node_modules/.bin/prism", "mock", SANDBOX_BUNDLE_PATHS.full, "-p", String(PRISM_PORT)],
        PRISM_PORT,
        "/health",
      ),
  },
];

const measure = (target: RunningTarget, workload: Workload, duration: number) => measureWorkload(target, workload, duration, CONNECTIONS);

// Every target serves at once and they take turns, round by round. Measured one after another,
// a machine whose speed drifts over the minutes of a run (other tenants, the load generator's own
// JIT) would bend the ratios; taking turns shifts every target alike.
const running = new Map<string, RunningTarget>();
for (const target of TARGETS) running.set(target.name, await target.start());
// Warm-up: JIT, validator caches, connections. The reference server keeps speeding up over its
// first seconds of load (bench/results/), so each workload gets WARM_UP_S first.
for (const target of running.values()) for (const workload of WORKLOADS) await measure(target, workload, WARM_UP_S);
const samples = new Map<string, Measurement[]>();
const sampleKey = (target: string, workload: string) => `${target}\u0000${workload}`;
const oneConnection = new Map<string, OneConnectionLatency[]>();
for (let round = 1; round <= RUNS; round++) {
  for (const workload of WORKLOADS) {
    for (const [name, target] of running) {
      const measurement = await measure(target, workload, DURATION);
      samples.set(sampleKey(name, workload.name), [...(samples.get(sampleKey(name, workload.name)) ?? []), measurement]);
      console.log(
        `round ${round} | ${name} | ${workload.name}: ${Math.round(measurement.rps)} req/s, p99 ${measurement.p99} ms${measurement.non2xx ? `, ${measurement.non2xx} non-2xx` : ""}`,
      );
    }
    for (const name of ONE_CONNECTION_TARGETS) {
      const latency = await measureOneConnection(running.get(name)!, workload, DURATION);
      const key = sampleKey(name, workload.name);
      oneConnection.set(key, [...(oneConnection.get(key) ?? []), latency]);
      console.log(`round ${round} | ${name} | ${workload.name}, 1 connection: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms`);
    }
  }
}
const results = new Map<string, Map<string, Measurement>>();
const rss = new Map<string, number>();
for (const [name, target] of running) {
  results.set(name, new Map(WORKLOADS.map((workload) => [workload.name, median(samples.get(sampleKey(name, workload.name))!)])));
  rss.set(name, peakRssMiB(target.child.pid!));
  await stop(target);
}

const STARTUP_RUNS = 9;
const startup = await measureStartup(STARTUP_RUNS);
console.log(`start-up to first served request: median ${startup.spawnToFirstResponseMs} ms`);

// The report.
const validating = results.get("reference, validation on")!;
const bare = results.get("node:http, fixed body")!;
const expressAlone = results.get("Express 5 alone, fixed body")!;
const lines: string[] = [];
const date = new Date().toISOString().slice(0, 10);
lines.push(`# Benchmark results, ${date}`, "");
lines.push(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`);
lines.push(
  `Command: \`npm run bench -- --duration ${DURATION} --runs ${RUNS}\` (autocannon, ${CONNECTIONS} connections, same machine; all targets serving at once and taking turns, ${RUNS} rounds of ${DURATION} s per target and workload after a ${WARM_UP_S} s warm-up; the median round).`,
  "",
);
// The spread of the rounds shows how far a single figure can be trusted on this machine.
lines.push(
  "| Target | Workload | req/s (median round) | rounds, lowest to highest | p50 ms | p99 ms | non-2xx | CPU µs per request |",
  "|---|---|---:|---:|---:|---:|---:|---:|",
);
for (const [target, byWorkload] of results) {
  for (const [workload, m] of byWorkload) {
    const rounds = samples.get(sampleKey(target, workload))!.map((sample) => sample.rps);
    lines.push(
      `| ${target} | ${workload} | ${Math.round(m.rps)} | ${Math.round(Math.min(...rounds))} to ${Math.round(Math.max(...rounds))} | ${m.p50} | ${m.p99} | ${m.non2xx} | ${m.cpuUsPerRequest.toFixed(1)} |`,
    );
  }
}
lines.push("", "| Target | Peak RSS (MiB) |", "|---|---:|", ...[...rss].map(([name, mib]) => `| ${name} | ${mib} |`), "");
/** A ratio of the median rounds, with the lowest and highest ratio of the rounds taken side by side. */
function ratio(of: string, to: string, workload: string): { median: number; low: number; high: number } {
  const mine = samples.get(sampleKey(of, workload))!;
  const theirs = samples.get(sampleKey(to, workload))!;
  const byRound = mine.map((sample, i) => sample.rps / theirs[i]!.rps);
  return {
    median: results.get(of)!.get(workload)!.rps / results.get(to)!.get(workload)!.rps,
    low: Math.min(...byRound),
    high: Math.max(...byRound),
  };
}
const shown = (r: { median: number; low: number; high: number }, target: number) =>
  `${r.median.toFixed(2)} (${r.low.toFixed(2)} to ${r.high.toFixed(2)}) ${r.median >= target ? "met" : "not met"}`;
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const oneConnectionMedian = (target: string, workload: string) => {
  const rounds = oneConnection.get(sampleKey(target, workload))!;
  return { p50: medianOf(rounds.map((r) => r.p50Ms)), p99: medianOf(rounds.map((r) => r.p99Ms)), p50s: rounds.map((r) => r.p50Ms) };
};
const VALIDATING = "reference, validation on";
lines.push(
  "Targets (same run): each ratio is that of the median rounds, with the lowest and highest ratio of the rounds in brackets (each round measures every target in turn).",
  "",
  `| Workload | validating / Express alone (≥ ${TARGET.ofExpress}) | validating / Prism (≥ ${TARGET.ofPrism}) | validating / unvalidated (≥ ${TARGET.ofUnvalidated}) | validating / node:http | p99 at ${CONNECTIONS} connections (≤ ${TARGET.p99Ms} ms) | p50 at 1 connection (< ${TARGET.oneConnectionP50Ms} ms) |`,
  "|---|---|---|---|---:|---|---|",
);
for (const workload of WORKLOADS.map((w) => w.name)) {
  const v = validating.get(workload)!;
  const single = oneConnectionMedian(VALIDATING, workload);
  lines.push(
    `| ${workload} | ${shown(ratio(VALIDATING, "Express 5 alone, fixed body", workload), TARGET.ofExpress)} | ${shown(ratio(VALIDATING, "Prism mock (defaults)", workload), TARGET.ofPrism)} | ${shown(ratio(VALIDATING, "reference, validation off", workload), TARGET.ofUnvalidated)} | ${(v.rps / bare.get(workload)!.rps).toFixed(2)} | ${v.p99} ms ${v.p99 <= TARGET.p99Ms ? "met" : "not met"} (Express alone ${expressAlone.get(workload)!.p99}) | ${single.p50.toFixed(3)} ms ${single.p50 < TARGET.oneConnectionP50Ms ? "met" : "not met"} (rounds ${single.p50s.map((p) => p.toFixed(3)).join(", ")}) |`,
  );
}
// The load generator shares the cores, so throughput ratios are bent toward 1 as the targets get
// faster (autocannon takes more of the machine). CPU per request is each process's own cost.
const cpuRatio = (cheaper: string, dearer: string, workload: string) =>
  results.get(cheaper)!.get(workload)!.cpuUsPerRequest / results.get(dearer)!.get(workload)!.cpuUsPerRequest;
lines.push(
  "",
  "The same ratios by CPU time per request (what each process spent per answer; the throughput they give where the load generator has cores of its own):",
  "",
  `| Workload | validating CPU µs per request | Express alone / validating (≥ ${TARGET.ofExpress}) | Prism / validating (≥ ${TARGET.ofPrism}) | unvalidated / validating (≥ ${TARGET.ofUnvalidated}) | requests per second per core, validating |`,
  "|---|---:|---:|---:|---:|---:|",
  ...WORKLOADS.map((w) => {
    const cpu = validating.get(w.name)!.cpuUsPerRequest;
    return `| ${w.name} | ${cpu.toFixed(1)} | ${cpuRatio("Express 5 alone, fixed body", VALIDATING, w.name).toFixed(2)} | ${(1 / cpuRatio(VALIDATING, "Prism mock (defaults)", w.name)).toFixed(2)} | ${cpuRatio("reference, validation off", VALIDATING, w.name).toFixed(2)} | ${Math.round(1e6 / cpu)} |`;
  }),
);
lines.push(
  "",
  "One connection, one request at a time (median round; the client's own time included):",
  "",
  "| Target | Workload | p50 ms | p99 ms |",
  "|---|---|---:|---:|",
  ...ONE_CONNECTION_TARGETS.flatMap((target) =>
    WORKLOADS.map((w) => {
      const single = oneConnectionMedian(target, w.name);
      return `| ${target} | ${w.name} | ${single.p50.toFixed(3)} | ${single.p99.toFixed(3)} |`;
    }),
  ),
);
// Little's law: with every connection waiting on its answer, the mean latency is connections / throughput.
const floor = (rps: number) => ((1000 * CONNECTIONS) / rps).toFixed(1);
lines.push(
  "",
  `Latency floor (Little's law, ${CONNECTIONS} connections each waiting for its answer: mean latency = ${CONNECTIONS} / throughput): ` +
    WORKLOADS.map(
      (w) =>
        `${w.name.split(":")[0]} validating ${floor(validating.get(w.name)!.rps)} ms, Express alone ${floor(expressAlone.get(w.name)!.rps)} ms`,
    ).join("; ") +
    ".",
);
lines.push(
  "",
  `Start-up of the server \`npm start\` runs (the built bundle with its code cache), spawn to first served request, median of ${STARTUP_RUNS} (target ≤ ${TARGET.startupMs} ms):`,
  "",
  ...startupTable(startup),
  "",
);
const out = values.out ?? `bench/results/${date}.md`;
writeFileSync(out, lines.join("\n"));
console.log(`\nwrote ${out}`);
