/** Starting benchmark targets as separate processes, and reading their peak memory and CPU time. */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { waitUntilServing } from "../../scripts/lib/local-ports.js";
import { SERVER_NODE_OPTIONS } from "../../scripts/lib/server-node-options.js";

export interface RunningTarget {
  child: ChildProcess;
  port: number;
  domainId: string;
  /** Domains the writes go to, in turn; the read domain when the target has no others. */
  writeDomainIds: string[];
}

/** Starts a target that prints `{"port":..,"domainId":..}` when it serves. */
export function startPrintingTarget(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningTarget> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (!line.startsWith("{")) return;
      const { port, domainId, writeDomainIds } = JSON.parse(line) as { port: number; domainId: string; writeDomainIds?: string[] };
      resolve({ child, port, domainId, writeDomainIds: writeDomainIds ?? [domainId] });
    });
    child.on("exit", (code) => reject(new Error(`${command} ${args.join(" ")} exited with ${code} before serving`)));
  });
}

/**
 * The reference server (bench/targets/reference-server.ts) with the Node options it runs with in
 * operation (`npm run serve`), and any given before them (a profiler's).
 */
export const startReferenceServer = (env: NodeJS.ProcessEnv = {}, nodeArguments: readonly string[] = []) =>
  startPrintingTarget("node", [...nodeArguments, ...SERVER_NODE_OPTIONS, "--import", "tsx", "bench/targets/reference-server.ts"], env);

/** Starts a target that prints nothing useful, waiting until it answers `probePath`. */
export async function startPolledTarget(command: string, args: string[], port: number, probePath: string): Promise<RunningTarget> {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await waitUntilServing(`${command} ${args.join(" ")}`, `http://127.0.0.1:${port}${probePath}`, { child });
  } catch (error) {
    child.kill();
    throw error;
  }
  return { child, port, domainId: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab", writeDomainIds: ["dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab"] };
}

/** Linux reports process times in USER_HZ ticks, 100 per second on every architecture Node runs on. */
const USER_HZ = 100;

/** A process's parent and the CPU time it has used so far (user and system, all threads, in µs), from /proc (proc(5)). */
export function processStat(pid: number): { parentPid: number; cpuMicroseconds: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command name in parentheses: state is field 3, the parent 4, utime 14 and stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { parentPid: Number(fields[1]), cpuMicroseconds: ((Number(fields[11]) + Number(fields[12])) * 1e6) / USER_HZ };
}

/** Peak resident set size of a process in MiB (Linux VmHWM). */
export function peakRssMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

export function stop(target: RunningTarget): Promise<void> {
  return new Promise((resolve) => {
    if (target.child.exitCode !== null) return resolve();
    target.child.once("exit", () => resolve());
    target.child.kill("SIGTERM");
  });
}

/** CPU time of the whole cluster so far (the postmaster and every process it started), in µs. */
export function clusterCpuMicroseconds(directory: string): number {
  const postmaster = Number(readFileSync(join(directory, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { parentPid, cpuMicroseconds } = processStat(Number(entry));
      if (Number(entry) === postmaster || parentPid === postmaster) total += cpuMicroseconds;
    } catch {
      // A process that ended while the list was read.
    }
  }
  return total;
}
