/**
 * Start-up: from spawning the server `npm start` runs (the bundle, dist/server/main.cjs, built
 * first from the current sources) to its first served request, as a CI pipeline starting a sandbox
 * sees it; and where that time goes, from the steps the server logs when it listens
 * (server/assembly/startup-timeline.ts). `npm run bench:startup [-- --runs N]` prints the table alone.
 *
 * The server runs as a pipeline would run it: its own partner key (no demo partner), the embed host
 * on, logs on (the "listening" line carries the steps).
 */
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildServer, SERVE_ARGUMENTS } from "../scripts/lib/server-build.js";
import { freePort, waitUntilServing } from "../scripts/lib/local-ports.js";
import { BENCH_KEY, BENCH_PARTNER } from "./targets/seed.js";

/** Milliseconds each step took; together they make `spawnToFirstResponseMs`. */
export interface StartupPhases {
  /** From spawn to the process's own clock starting: fork, exec, the runtime's first steps. */
  spawnToProcessStartMs: number;
  /** Node's bootstrap, then reading and compiling the server's code, to its first module running. */
  processStartToEntryMs: number;
  /** Evaluating the server's modules (Express, the validator, the handlers...). */
  importsMs: number;
  /** Configuration and opening the store (nothing to open in memory; connecting, or PGlite's start and migrations). */
  openStoreMs: number;
  /** createApp. */
  createAppMs: number;
  /** The rest of server/main.ts to its listen callback: timers, the embed host, binding the port. */
  listeningMs: number;
  /**
   * Listening to answering GET /health: the validator's preparation of its document (asynchronous,
   * it runs after the listen callback), its lazy set-up on the first request, and the request.
   */
  firstAnswerMs: number;
}

export interface StartupMeasurement {
  spawnToFirstResponseMs: number;
  /** Kept for the results file's existing line: configuration and createApp (= phases.createAppMs). */
  createAppMs: number;
  /** The median of each phase over the runs (their sum need not equal the median total). */
  phases: StartupPhases;
}

interface ListeningLine {
  msg?: string;
  time?: number;
  startupMs?: { entry: number; imported: number; storeOpened: number; appBuilt: number; listening: number };
}

async function once(): Promise<{ total: number; phases: StartupPhases }> {
  const [port, embedPort, dashboardPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    PORT: String(port),
    EMBED_PORT: String(embedPort),
    DASHBOARD_PORT: String(dashboardPort),
    PARTNER_API_CONFIG: "/nonexistent.json",
    PARTNER_API_KEYS: `${BENCH_PARTNER.id}:${BENCH_KEY}`,
    // The start-up of a configured deployment, as measured before a sandbox made its demo beside configured partners.
    PARTNER_API_DEMO: "off",
    LOG_LEVEL: "info",
  };
  // Both clocks as Unix time, so the child's steps (relative to its own start) line up with ours.
  const spawnedAt = performance.timeOrigin + performance.now();
  const child = spawn(process.execPath, [...SERVE_ARGUMENTS], { env, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    // Polled every 2 ms: the figure measured is the time to the first answer.
    await waitUntilServing("the built server", `http://127.0.0.1:${port}/health`, { child, intervalMs: 2 });
    const answeredAt = performance.timeOrigin + performance.now();
    // The listening line is written before the first answer; give the pipe a moment to deliver it.
    const line = await listeningLine(() => output);
    const marks = line.startupMs!;
    // pino's `time` is when the line was logged, right after the `listening` mark.
    const processStartedAt = line.time! - marks.listening;
    return {
      total: answeredAt - spawnedAt,
      phases: {
        spawnToProcessStartMs: processStartedAt - spawnedAt,
        processStartToEntryMs: marks.entry,
        importsMs: marks.imported - marks.entry,
        openStoreMs: marks.storeOpened - marks.imported,
        createAppMs: marks.appBuilt - marks.storeOpened,
        listeningMs: marks.listening - marks.appBuilt,
        firstAnswerMs: answeredAt - processStartedAt - marks.listening,
      },
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
}

async function listeningLine(output: () => string): Promise<ListeningLine> {
  for (let attempt = 0; attempt < 100; attempt++) {
    for (const text of output().split("\n")) {
      if (!text.startsWith("{")) continue;
      const line = JSON.parse(text) as ListeningLine;
      if (line.msg === "listening" && line.startupMs && line.time !== undefined) return line;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the server logged no "listening" line with its start-up steps:\n${output()}`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureStartup(runs: number): Promise<StartupMeasurement> {
  await buildServer();
  const all: Array<{ total: number; phases: StartupPhases }> = [];
  for (let i = 0; i < runs; i++) all.push(await once());
  const phase = (name: keyof StartupPhases) => Math.round(median(all.map((run) => run.phases[name])));
  const phases: StartupPhases = {
    spawnToProcessStartMs: phase("spawnToProcessStartMs"),
    processStartToEntryMs: phase("processStartToEntryMs"),
    importsMs: phase("importsMs"),
    openStoreMs: phase("openStoreMs"),
    createAppMs: phase("createAppMs"),
    listeningMs: phase("listeningMs"),
    firstAnswerMs: phase("firstAnswerMs"),
  };
  return { spawnToFirstResponseMs: Math.round(median(all.map((run) => run.total))), createAppMs: phases.createAppMs, phases };
}

/** The phases as Markdown table rows, for a results file. */
export function startupTable({ spawnToFirstResponseMs, phases }: StartupMeasurement): string[] {
  return [
    "| Phase | ms (median) |",
    "|---|---:|",
    `| spawn → process start | ${phases.spawnToProcessStartMs} |`,
    `| process start → first module runs (Node's bootstrap, reading the bundle) | ${phases.processStartToEntryMs} |`,
    `| evaluating the modules | ${phases.importsMs} |`,
    `| configuration and opening the store | ${phases.openStoreMs} |`,
    `| createApp | ${phases.createAppMs} |`,
    `| → listening (embed host, binding the port) | ${phases.listeningMs} |`,
    `| → first answer to GET /health (the validator prepares its document, sets up on the first request; the request) | ${phases.firstAnswerMs} |`,
    `| **spawn → first answer** | **${spawnToFirstResponseMs}** |`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
  const runs = Number(values.runs);
  const measurement = await measureStartup(runs);
  console.log([`Start-up of \`node ${SERVE_ARGUMENTS.join(" ")}\`, median of ${runs} runs:`, "", ...startupTable(measurement)].join("\n"));
}
