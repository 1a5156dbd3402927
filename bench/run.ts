/**
 * `npm run bench`: throughput, latency and peak memory of the reference server against baselines
 * measured in the same run on the same machine, so the figures that matter are ratios:
 * node:http with a fixed body (the practical limit), Express 5 alone with the same body (the
 * ceiling of any Express server), the reference server without and with validation, and the
 * Prism mock on the same document; on a read, a write and a list.
 * Then start-up time. Options: --duration S (per run, default 5), --runs N (default 3),
 * --out FILE (default bench/results/<date>.md).
 */
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { freePort } from "../scripts/lib/local-ports.js";
import { peakRssMiB, startPolledTarget, startPrintingTarget, stop, type RunningTarget } from "./lib/processes.js";
import { measureStartup, startupTable } from "./startup.js";
import { type Measurement, measure as measureWorkload, median, type Workload, WORKLOADS } from "./lib/workloads.js";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, runs: { type: "string", default: "3" }, out: { type: "string" } },
});
const DURATION = Number(values.duration);
const RUNS = Number(values.runs);
const CONNECTIONS = 50;
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
    start: () => startPrintingTarget("node", [...NODE_TSX, "bench/targets/reference-server.ts"], { VALIDATE: "0" }),
  },
  {
    name: "reference, validation on",
    start: () => startPrintingTarget("node", [...NODE_TSX, "bench/targets/reference-server.ts"], { VALIDATE: "1" }),
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
for (let round = 1; round <= RUNS; round++) {
  for (const workload of WORKLOADS) {
    for (const [name, target] of running) {
      const measurement = await measure(target, workload, DURATION);
      samples.set(sampleKey(name, workload.name), [...(samples.get(sampleKey(name, workload.name)) ?? []), measurement]);
      console.log(
        `round ${round} | ${name} | ${workload.name}: ${Math.round(measurement.rps)} req/s, p99 ${measurement.p99} ms${measurement.non2xx ? `, ${measurement.non2xx} non-2xx` : ""}`,
      );
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
const unvalidated = results.get("reference, validation off")!;
const prism = results.get("Prism mock (defaults)")!;
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
  "| Target | Workload | req/s (median round) | rounds, lowest to highest | p50 ms | p99 ms | non-2xx |",
  "|---|---|---:|---:|---:|---:|---:|",
);
for (const [target, byWorkload] of results) {
  for (const [workload, m] of byWorkload) {
    const rounds = samples.get(sampleKey(target, workload))!.map((sample) => sample.rps);
    lines.push(
      `| ${target} | ${workload} | ${Math.round(m.rps)} | ${Math.round(Math.min(...rounds))} to ${Math.round(Math.max(...rounds))} | ${m.p50} | ${m.p99} | ${m.non2xx} |`,
    );
  }
}
lines.push("", "| Target | Peak RSS (MiB) |", "|---|---:|", ...[...rss].map(([name, mib]) => `| ${name} | ${mib} |`), "");
lines.push(
  "Ratios (same run). Express's share is the part of a validating request's time that Express alone takes to answer the same request with a fixed body.",
  "",
  "| Workload | validating / Prism (target ≥ 3) | validating / unvalidated (target ≥ 0.85) | validating / node:http | Express's share | p99 ≤ 10 ms | p99 of Express alone |",
  "|---|---:|---:|---:|---:|---|---:|",
);
for (const workload of WORKLOADS.map((w) => w.name)) {
  const v = validating.get(workload)!;
  const e = expressAlone.get(workload)!;
  lines.push(
    `| ${workload} | ${(v.rps / prism.get(workload)!.rps).toFixed(2)} | ${(v.rps / unvalidated.get(workload)!.rps).toFixed(2)} | ${(v.rps / bare.get(workload)!.rps).toFixed(2)} | ${Math.round((100 * v.rps) / e.rps)} % | ${v.p99 <= 10 ? "yes" : "no"} (${v.p99}) | ${e.p99} |`,
  );
}
// Little's law: with every connection waiting on its answer, the mean latency is connections / throughput.
const floor = (rps: number) => ((1000 * CONNECTIONS) / rps).toFixed(1);
lines.push(
  "",
  `Latency floor (Little's law, ${CONNECTIONS} connections each waiting for its answer: mean latency = ${CONNECTIONS} / throughput): ` +
    WORKLOADS.map(
      (w) =>
        `${w.name.split(":")[0]} validating ${floor(validating.get(w.name)!.rps)} ms, Express alone ${floor(expressAlone.get(w.name)!.rps)} ms`,
    ).join("; ") +
    ". A p99 of 10 ms needs a mean well under 10 ms, so at least " +
    `${(CONNECTIONS / 0.01).toLocaleString("en")} req/s.`,
);
lines.push(
  "",
  `Start-up of the server \`npm start\` runs (the built bundle with its code cache), spawn to first served request, median of ${STARTUP_RUNS} (target ≤ 400 ms):`,
  "",
  ...startupTable(startup),
  "",
);
const out = values.out ?? `bench/results/${date}.md`;
writeFileSync(out, lines.join("\n"));
console.log(`\nwrote ${out}`);
