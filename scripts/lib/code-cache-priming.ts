/**
 * The build's priming run: starts the built server once, sends it the requests a freshly started
 * server typically gets first (the health checks a pipeline polls, an authenticated call with a
 * JSON body), and stops it, so its entry writes V8's code cache of what that compiled
 * (server/assembly/cached-bundle-loader.ts). Run on its own ports, with its own key and without logs, so it
 * meets neither a running server nor the deployment's partners file.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CODE_CACHE_FILE, ENTRY_FILE, WRITE_CODE_CACHE_ENV } from "../../server/assembly/bundle-files.js";
import { SERVER_NODE_OPTIONS } from "./server-node-options.js";
import { announcedAddress, spawnServer } from "./server-process.js";

const KEY = "sk_sandbox_codeCachePrimingRun000000000000";

export async function primeCodeCache(directory: string): Promise<void> {
  const cachePath = join(directory, CODE_CACHE_FILE);
  // A stale cache would be read by this run and rejected, for nothing.
  rmSync(cachePath, { force: true });
  // With the options it runs with: V8 rejects a code cache made under other flags.
  const server = spawnServer([...SERVER_NODE_OPTIONS, join(directory, ENTRY_FILE)], {
    [WRITE_CODE_CACHE_ENV]: "1",
    PORT: "0",
    EMBED_PORT: "0",
    DASHBOARD_PORT: "0",
    DEMO_HOST_PORT: "0",
    PARTNER_API_ENVIRONMENT: "sandbox",
    PARTNER_API_VARIANTS: "R,D",
    PARTNER_API_CONFIG: join(directory, "no-partners-file.json"),
    PARTNER_API_KEYS: `priming:${KEY}`,
    LOG_LEVEL: "silent",
  });
  try {
    const baseUrl = await announcedAddress(server, 30_000);
    if (baseUrl === undefined) throw new Error(`the built server did not say where it listens:\n${server.output()}`);
    const auth = { Authorization: `Bearer ${KEY}` };
    await expectOk(fetch(`${baseUrl}/health`));
    await expectOk(fetch(`${baseUrl}/api/v1/health`, { headers: auth }));
    await expectOk(
      fetch(`${baseUrl}/api/v1/users`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ user_identifier: "priming_user" }),
      }),
    );
  } finally {
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
  }
  const code = await server.exited;
  if (code !== 0 || !existsSync(cachePath))
    throw new Error(`the priming run of the built server ended with ${code} and wrote no code cache:\n${server.output()}`);
}

async function expectOk(answer: Promise<Response>): Promise<void> {
  const response = await answer;
  if (!response.ok) throw new Error(`priming request to ${response.url} answered ${response.status}: ${await response.text()}`);
}
