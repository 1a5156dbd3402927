/**
 * A server started as its own process (`server/main.ts` under tsx, or the built entry), its output
 * kept, and the address it announces ("server on http://..."): for the build's priming run and the
 * tests that start the server as `npm start` would.
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote so far, standard output and error together. */
  output(): string;
  /** What it wrote to standard error alone. */
  errors(): string;
  /** Its exit code, once it ended and everything it wrote has been read. */
  exited: Promise<number | null>;
}

const ANNOUNCED = /server on (http:\/\/\S+)/;

export function spawnServer(args: readonly string[], env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  // "close", not "exit": output written just before the end may still be in the pipes at "exit".
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, output: () => output, errors: () => errors, exited };
}

/** The base address the server announces once it listens; undefined when it ends or stays silent for `timeoutMs`. */
export async function announcedAddress(server: ServerProcess, timeoutMs = 20_000): Promise<string | undefined> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const match = ANNOUNCED.exec(server.output());
    if (match) return match[1];
    if (server.child.exitCode !== null) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}
