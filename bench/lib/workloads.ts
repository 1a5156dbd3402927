/** The workloads every throughput benchmark sends, and one autocannon measurement of one of them. */
import autocannon from "autocannon";
import { BENCH_KEY } from "../targets/seed.js";
import { processStat, type RunningTarget } from "./processes.js";

export interface Workload {
  name: string;
  request(target: RunningTarget): autocannon.Request;
}

/** Writes go to a new record name each time, so every one is a real create, never a conflict. */
let writeSequence = 0;
export const READ: Workload = {
  name: "read: GET domain detail (5 records)",
  request: (t) => ({ method: "GET", path: `/api/v1/domains/${t.domainId}` }),
};
export const WRITE: Workload = {
  name: "write: POST record (Variant D)",
  request: (t) => ({
    method: "POST",
    setupRequest: (request) => {
      const n = ++writeSequence;
      return {
        ...request,
        path: `/api/v1/domains/${t.writeDomainIds[n % t.writeDomainIds.length]}/dns`,
        // Names unique across processes too: two load generators may write to one database.
        body: JSON.stringify({ type: "TXT", name: `w${process.pid}-${n}`, content: "benchmark" }),
      };
    },
  }),
};
export const LIST: Workload = { name: "list: GET users (limit 100)", request: () => ({ method: "GET", path: "/api/v1/users?limit=100" }) };
export const WORKLOADS: Workload[] = [READ, WRITE, LIST];

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /**
   * CPU time the target process spent per request answered, in µs (all its threads): its own
   * cost, which the load generator sharing the cores does not bend the way it bends throughput.
   */
  cpuUsPerRequest: number;
}

export async function measure(target: RunningTarget, workload: Workload, duration: number, connections: number): Promise<Measurement> {
  const cpuBefore = processStat(target.child.pid!).cpuMicroseconds;
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration,
    headers: { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" },
    requests: [workload.request(target)],
  });
  const cpu = processStat(target.child.pid!).cpuMicroseconds - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuUsPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

/** The round of median throughput. */
export const median = (runs: Measurement[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
