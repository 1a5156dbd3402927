/**
 * `npm run bench:zone`: what the largest zone a partner can build costs every other partner. The
 * reference server (validating, as deployed) holds a domain at the most records a domain may hold
 * (x-dns-limits), each a TXT of the longest single string. GET /health is timed idle, then while
 * READERS clients read that zone without pause (the detail, then every page of the list: the shape
 * of the attack in issue 16, whose figures are in bench/results/). The
 * figure that matters is the ratio of the two in the same run. Options: --seconds S (loaded
 * phase, default 10), --readers N (default 20), --out FILE (default bench/results/<date>-zone-reads.md).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { dnsLimits } from "../generated/operations.js";
import { peakRssMiB, startReferenceServer, stop, type RunningTarget } from "./lib/processes.js";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, readers: { type: "string", default: "20" }, out: { type: "string" } },
});
const LOADED_S = Number(values.seconds);
const READERS = Number(values.readers);
const IDLE_S = 5;
const WARM_UP_S = 3;
/** One /health request every PROBE_INTERVAL_MS at most, one at a time, as a load balancer's checks are. */
const PROBE_INTERVAL_MS = 5;

interface Latencies {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Times GET /health, one request at a time over one kept-alive connection, for `seconds`. */
async function probeHealth(port: number, seconds: number): Promise<Latencies> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      get({ host: "127.0.0.1", port, path: "/health", agent }, (response) => {
        response.resume();
        response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`/health answered ${response.statusCode}`))));
      }).on("error", reject);
    });
    const took = performance.now() - started;
    samples.push(took);
    if (took < PROBE_INTERVAL_MS) await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS - took));
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples[samples.length - 1]!, count: samples.length };
}

interface ReaderResult {
  requests: number;
  rps: number;
  bytesPerRequest: number;
  p50: number;
  p99: number;
  non2xx: number;
  zonesRead: number;
}

/** Records a page the readers ask for: a client paging a large zone (without `limit`, one page is the zone). */
const PAGE_SIZE = 100;

/** Runs the readers in their own process for `seconds` (bench/lib/zone-readers.ts). */
function readZone(target: RunningTarget, seconds: number): Promise<ReaderResult> {
  const child = spawn(
    "node",
    [
      "--import",
      "tsx",
      "bench/lib/zone-readers.ts",
      String(target.port),
      target.domainId,
      String(READERS),
      String(seconds),
      String(PAGE_SIZE),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("close", (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split("\n").pop()!) as ReaderResult)
        : reject(new Error(`zone readers exited with ${code}`)),
    );
  });
}

const target = await startReferenceServer({ LARGEST_ZONE: "1" });
try {
  // Warm-up: JIT, validator caches, connections; the warm-up's own figures are not reported.
  await readZone(target, WARM_UP_S);
  const idle = await probeHealth(target.port, IDLE_S);
  console.log(`idle /health: p50 ${idle.p50.toFixed(2)} ms, p99 ${idle.p99.toFixed(2)} ms`);
  // The readers start first so the probe times /health under a load that is already running.
  const readers = readZone(target, LOADED_S + 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const loaded = await probeHealth(target.port, LOADED_S);
  const read = await readers;
  console.log(
    `loaded /health: p50 ${loaded.p50.toFixed(2)} ms, p99 ${loaded.p99.toFixed(2)} ms; readers ${Math.round(read.rps)} req/s, ${read.zonesRead} zones read`,
  );
  const rss = peakRssMiB(target.child.pid!);

  const date = new Date().toISOString().slice(0, 10);
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    `# /health while the largest zone is read, ${date}`,
    "",
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, Node ${process.version}. Command: \`npm run bench:zone -- --seconds ${LOADED_S} --readers ${READERS}\`.`,
    "",
    `The reference server (request and response validation on) holds a domain of ${dnsLimits.records_per_domain.toLocaleString("en")} records, the most a domain may hold, each a TXT of 255 characters. ` +
      `${READERS} clients (autocannon, their own process) read it without pause: the domain detail (every record), then the record list page by page (${PAGE_SIZE} records a page) to its end, and again. ` +
      `GET /health is timed one request at a time, at most one every ${PROBE_INTERVAL_MS} ms, for ${IDLE_S} s idle (after a ${WARM_UP_S} s warm-up of the readers) and for ${LOADED_S} s under the readers.`,
    "",
    "| /health | requests | p50 ms | p99 ms | max ms |",
    "|---|---:|---:|---:|---:|",
    `| idle | ${idle.count} | ${ms(idle.p50)} | ${ms(idle.p99)} | ${ms(idle.max)} |`,
    `| ${READERS} clients reading the zone | ${loaded.count} | ${ms(loaded.p50)} | ${ms(loaded.p99)} | ${ms(loaded.max)} |`,
    `| ratio, loaded / idle | | ${(loaded.p50 / idle.p50).toFixed(1)} | ${(loaded.p99 / idle.p99).toFixed(1)} | |`,
    "",
    `Readers: ${Math.round(read.rps)} requests/s (${read.requests.toLocaleString("en")} in all, ${read.non2xx} not 2xx), ${read.zonesRead} whole zones read, about ${Math.round(read.bytesPerRequest / 1024)} KiB per answer; their own latency p50 ${read.p50} ms, p99 ${read.p99} ms. Server peak RSS ${rss} MiB.`,
    "",
  ];
  const out = values.out ?? `bench/results/${date}-zone-reads.md`;
  writeFileSync(out, lines.join("\n"));
  console.log(`\nwrote ${out}`);
} finally {
  await stop(target);
}
