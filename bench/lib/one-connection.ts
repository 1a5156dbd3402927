/**
 * Latency of one client sending one request at a time over one kept-alive connection, to
 * sub-millisecond precision (autocannon's histogram counts whole milliseconds). The figure is
 * what such a client sees: its own request and parsing time are included, as in any client.
 */
import { Agent, request } from "node:http";
import { BENCH_KEY } from "../targets/seed.js";
import type { RunningTarget } from "./processes.js";
import type { Workload } from "./workloads.js";

export interface OneConnectionLatency {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

/** One request of the workload, as autocannon would send it (its setupRequest applied). */
function nextRequest(target: RunningTarget, workload: Workload): { method: string; path: string; body?: string } {
  const template = workload.request(target);
  const setup = template.setupRequest;
  const prepared = typeof setup === "function" ? setup({ ...template }, {}) : template;
  return { method: prepared.method ?? "GET", path: prepared.path ?? "/", body: prepared.body as string | undefined };
}

export async function measureOneConnection(target: RunningTarget, workload: Workload, durationS: number): Promise<OneConnectionLatency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let non2xx = 0;
  const until = performance.now() + durationS * 1000;
  try {
    while (performance.now() < until) {
      const { method, path, body } = nextRequest(target, workload);
      const started = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const sent = request(
          {
            host: "127.0.0.1",
            port: target.port,
            method,
            path,
            agent,
            headers: { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" },
          },
          (response) => {
            response.resume();
            response.once("end", () => resolve(response.statusCode ?? 0));
          },
        );
        sent.once("error", reject);
        sent.end(body);
      });
      latencies.push(performance.now() - started);
      if (status < 200 || status > 299) non2xx++;
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(3));
  return { requests: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), non2xx };
}
