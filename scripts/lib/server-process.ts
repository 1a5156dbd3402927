/**
 * A server started as its own process (`server/main.ts` under tsx, or the built entry), its output
 * kept, and the address it announces ("server on http://..."): for the build's priming run and the
 * tests that start the server as `npm start` would. It listens on ports of its own (every listener
 * on a free port unless `env` names one), so it never meets a server the user runs on the default
 * ports, and it ends with the process that started it (scripts/lib/owned-processes.ts).
 */
import type { ChildProcess } from "node:child_process";
import { Deadline, pause } from "./deadlines.js";
import { lastOutput, NotServingError } from "./local-ports.js";
import { killOwned, spawnOwned, stopOwned } from "./owned-processes.js";

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote so far, standard output and error together. */
  output(): string;
  /** What it wrote to standard error alone. */
  errors(): string;
  /** Its exit code, once it ended and everything it wrote has been read. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it does not stop in time; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash ends it; resolves once it ended. */
  kill(): Promise<void>;
}

const ANNOUNCED = /server on (http:\/\/\S+)/;

/** Every listener of the server on a free port (0), unless the caller names one. */
const OWN_PORTS = { PORT: "0", EMBED_PORT: "0", DASHBOARD_PORT: "0", DEMO_HOST_PORT: "0" };

export function spawnServer(args: readonly string[], env: NodeJS.ProcessEnv, { cwd }: { cwd?: string } = {}): ServerProcess {
  const child = spawnOwned(process.execPath, args, {
    env: { ...process.env, ...OWN_PORTS, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd === undefined ? {} : { cwd }),
  });
  let output = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  // "close", not "exit": output written just before the end may still be in the pipes at "exit".
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    errors: () => errors,
    exited,
    stop: async () => {
      await stopOwned(child);
      return exited;
    },
    kill: async () => {
      await killOwned(child);
      await exited;
    },
  };
}

/**
 * The base address the server announces once it listens; undefined when it ends first, or stays
 * silent past the deadline (`baseMs` on a quiet machine, scaled to this one: scripts/lib/deadlines.ts).
 */
export async function announcedAddress(server: ServerProcess, baseMs = 60_000): Promise<string | undefined> {
  for (const deadline = new Deadline(baseMs); !deadline.passed; ) {
    const match = ANNOUNCED.exec(server.output());
    if (match) return match[1];
    if (server.child.exitCode !== null) return undefined;
    await pause(10);
  }
  return undefined;
}

/** The announced base address, or a NotServingError naming the server, why, and its last output. */
export async function servingAddress(name: string, server: ServerProcess, baseMs = 60_000): Promise<string> {
  const deadline = new Deadline(baseMs);
  const address = await announcedAddress(server, baseMs);
  if (address) return address;
  const why =
    server.child.exitCode === null ? `did not say where it listens ${deadline.describe()}` : `ended with ${server.child.exitCode}`;
  throw new NotServingError(`${name} ${why}${lastOutput(server.output())}`);
}
