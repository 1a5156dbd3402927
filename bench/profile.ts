/**
 * `npm run bench:profile`: a CPU profile of the validating reference server per workload of
 * `npm run bench`, and where its time goes: by package (express, the validator, ajv, our own
 * server code, Node's internals) and by function. Each workload gets a fresh server process run
 * with `--cpu-prof` under 50 connections; the `.cpuprofile` files (open them in Chrome's DevTools;
 * not committed, they are large) and a summary land in `bench/results/profiles/`. Options:
 * --duration S (default 8), --workload read|write|list (default all), --validate 0|1 (default 1),
 * --label NAME (file prefix); --summarize FILE.cpuprofile,... only summarizes profiles taken before.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startReferenceServer, stop } from "./lib/processes.js";
import { measure, WORKLOADS } from "./lib/workloads.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    workload: { type: "string" },
    validate: { type: "string", default: "1" },
    label: { type: "string", default: "validating" },
    summarize: { type: "string" },
  },
});
const OUT = "bench/results/profiles";
const TOP = 25;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which part of the stack a script belongs to, by its path; undefined for Node's own and native code. */
function partOf(url: string): string | undefined {
  if (url === "" || url.startsWith("node:")) return undefined;
  const nodeModules = url.lastIndexOf("node_modules/");
  if (nodeModules >= 0) {
    const rest = url.slice(nodeModules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const inProject = /\/(server|generated|bench)\/(.*)$/.exec(url);
  return inProject ? `${inProject[1]}/${inProject[2]}` : url;
}

/**
 * Writing to a socket on this machine is mostly waiting: the load generator runs on the same two
 * cores, and a write that wakes it often hands it the core. Shown apart so it does not hide the rest.
 */
const SOCKET_WRITES = new Set(["writev", "writeUtf8String", "writeBuffer"]);

/**
 * Self time per part, in percent of the samples taken while not idle. Time in Node's own and
 * native functions counts for the nearest caller of ours or of a package (JSON.stringify for
 * express, the regular expressions for the validator's Ajv), whose cost it is.
 */
function summarize(profile: CpuProfile): { parts: [string, number][]; functions: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, time: number) => map.set(key, (map.get(key) ?? 0) + time);
  let busy = 0;
  for (const [id, time] of selfTime) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") continue;
    busy += time;
    const where = url
      ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(server|generated|bench)\//, "$1/")}:${lineNumber + 1}`
      : "";
    add(functions, `${functionName || "(anonymous)"} ${where}`.trim(), time);
    if (SOCKET_WRITES.has(functionName)) add(parts, "(socket writes, mostly waiting for a core)", time);
    else if (functionName === "(garbage collector)") add(parts, "(garbage collector)", time);
    else {
      let node: number | undefined = id;
      let part: string | undefined;
      while (node !== undefined && (part = partOf(byId.get(node)!.callFrame.url)) === undefined) node = parent.get(node);
      add(parts, part ?? "(Node's own, for no caller of ours: the HTTP server, microtasks)", time);
    }
  }
  const percent = (entries: Map<string, number>) =>
    [...entries].map(([k, v]) => [k, (100 * v) / busy] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { parts: percent(parts).slice(0, TOP), functions: percent(functions).slice(0, TOP) };
}

function reportOf(title: string, profile: CpuProfile): string[] {
  const { parts, functions } = summarize(profile);
  return [
    title,
    "",
    "| Part (file or package) | self time |",
    "|---|---:|",
    ...parts.filter(([, p]) => p >= 0.5).map(([k, p]) => `| ${k} | ${p.toFixed(1)} % |`),
    "",
    "| Function | self time |",
    "|---|---:|",
    ...functions.map(([k, p]) => `| \`${k}\` | ${p.toFixed(1)} % |`),
    "",
  ];
}

mkdirSync(OUT, { recursive: true });
const report: string[] = [`# CPU profiles of the reference server (${values.label}), ${new Date().toISOString().slice(0, 10)}`, ""];
if (values.summarize) {
  report.push(
    `Node ${process.version}; \`npm run bench:profile -- --summarize ...\`. Percentages are of the busy samples (idle left out).`,
    "",
  );
  for (const file of values.summarize.split(","))
    report.push(...reportOf(`## ${file}`, JSON.parse(readFileSync(file, "utf8")) as CpuProfile));
} else {
  report.push(
    `Node ${process.version}; \`npm run bench:profile -- --duration ${values.duration}${values.workload ? ` --workload ${values.workload}` : ""} --validate ${values.validate}\`: one fresh server per workload under \`--cpu-prof\`, 50 connections. Percentages are of the busy samples (idle left out).`,
    "",
  );
  const workloads = values.workload ? WORKLOADS.filter((w) => w.name.startsWith(values.workload!)) : WORKLOADS;
  for (const workload of workloads) {
    const dir = join(OUT, "tmp");
    rmSync(dir, { recursive: true, force: true });
    const target = await startReferenceServer({ VALIDATE: values.validate }, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    await measure(target, workload, 2, 50); // warm-up, as npm run bench does
    const measurement = await measure(target, workload, Number(values.duration), 50);
    await stop(target);
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"))!;
    const kept = join(OUT, `${values.label}-${workload.name.split(":")[0]}.cpuprofile`);
    renameSync(join(dir, file), kept);
    rmSync(dir, { recursive: true, force: true });
    const title = `## ${workload.name}: ${Math.round(measurement.rps)} req/s, ${measurement.cpuUsPerRequest.toFixed(1)} µs of CPU per request (profiling slows it)`;
    report.push(...reportOf(title, JSON.parse(readFileSync(kept, "utf8")) as CpuProfile));
    console.log(`${workload.name}: profile ${kept}`);
  }
}
const summaryPath = join(OUT, `${values.label}.md`);
writeFileSync(summaryPath, `${report.join("\n")}\n`);
console.log(report.join("\n"));
