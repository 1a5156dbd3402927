/**
 * The build's priming run: starts the built server once, sends it the requests a freshly started
 * server typically gets first (the health checks a pipeline polls, an authenticated call with a
 * JSON body), and stops it, so its entry writes V8's code cache of what that compiled
 * (server/cached-bundle-loader.ts). Run on its own ports, with its own key and without logs, so it
 * meets neither a running server nor the deployment's partners file.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CODE_CACHE_FILE, ENTRY_FILE, WRITE_CODE_CACHE_ENV } from "./server-bundle-files.js";

const KEY = "sk_sandbox_codeCachePrimingRun000000000000";
const READY = /server on (http:\/\/\S+)/;

export async function primeCodeCache(directory: string): Promise<void> {
  const cachePath = join(directory, CODE_CACHE_FILE);
  // A stale cache would be read by this run and rejected, for nothing.
  rmSync(cachePath, { force: true });
  const child = spawn(process.execPath, [join(directory, ENTRY_FILE)], {
    env: {
      ...process.env,
      [WRITE_CODE_CACHE_ENV]: "1",
      PORT: "0",
      EMBED_PORT: "0",
      DEMO_HOST_PORT: "0",
      PARTNER_API_ENVIRONMENT: "sandbox",
      PARTNER_API_VARIANTS: "R,D",
      PARTNER_API_CONFIG: join(directory, "no-partners-file.json"),
      PARTNER_API_KEYS: `priming:${KEY}`,
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const baseUrl = await Promise.race([readyAddress(() => output), exited.then(() => null)]);
    if (baseUrl === null) throw new Error(`the built server exited before serving:\n${output}`);
    const auth = { Authorization: `Bearer ${KEY}` };
    await expectOk(fetch(`${baseUrl}/health`));
    await expectOk(fetch(`${baseUrl}/api/v1/health`, { headers: auth }));
    await expectOk(fetch(`${baseUrl}/api/v1/users`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ user_identifier: "priming_user" }) }));
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
  }
  const code = await exited;
  if (code !== 0 || !existsSync(cachePath)) throw new Error(`the priming run of the built server ended with ${code} and wrote no code cache:\n${output}`);
}

async function readyAddress(output: () => string, timeoutMs = 30_000): Promise<string> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const match = READY.exec(output());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the built server did not say where it listens within ${timeoutMs / 1000} s:\n${output()}`);
}

async function expectOk(answer: Promise<Response>): Promise<void> {
  const response = await answer;
  if (!response.ok) throw new Error(`priming request to ${response.url} answered ${response.status}: ${await response.text()}`);
}
