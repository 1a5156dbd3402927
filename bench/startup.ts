/**
 * Start-up: from spawning the server process to its first served request, as a CI pipeline
 * starting a sandbox sees it; and the share of it spent in createApp.
 */
import { spawn } from "node:child_process";
import { freePort, waitUntilServing } from "../scripts/lib/local-ports.js";

async function once(): Promise<{ spawnToFirstResponseMs: number; createAppMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("node", ["--import", "tsx", "bench/targets/startup-server.ts"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "inherit"] });
  let createAppMs = Number.NaN;
  child.stdout!.on("data", (chunk: Buffer) => {
    const match = /createApp (\d+)/.exec(chunk.toString());
    if (match) createAppMs = Number(match[1]);
  });
  // Polled every 2 ms: the figure measured is the time to the first answer.
  await waitUntilServing(`http://127.0.0.1:${port}/health`, { intervalMs: 2 });
  const spawnToFirstResponseMs = Math.round(performance.now() - started);
  child.kill("SIGTERM");
  return { spawnToFirstResponseMs, createAppMs };
}

export async function measureStartup(runs: number): Promise<{ spawnToFirstResponseMs: number; createAppMs: number }> {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await once());
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { spawnToFirstResponseMs: median(all.map((r) => r.spawnToFirstResponseMs)), createAppMs: median(all.map((r) => r.createAppMs)) };
}
