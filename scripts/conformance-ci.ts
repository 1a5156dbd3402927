/**
 * `npm run conformance:ci`: the contract suite three ways, as CI runs it on every push:
 *   1. against the reference server directly;
 *   2. against the reference server through Prism's validating proxy (`--errors`: any answer
 *      Prism finds non-conforming becomes an error the suite reports);
 *   3. against the Prism mock, stateless checks only (the spec's own examples conform);
 *   4. against the reference server on the PostgreSQL store: PGlite in a directory of its own, or a
 *      fresh database on the server PARTNER_API_TEST_DATABASE_URL names (`npm run test:postgres`).
 * The reference server is the built one `npm start` runs (scripts/lib/server-build.ts), built here
 * unless the build in dist/server is of the same sources.
 * Every process is started here on free ports and stopped at the end; exits non-zero if any run fails.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { freePort, NotServingError, waitUntilServing } from "./lib/local-ports.js";
import { spawnOwned, stopOwned } from "./lib/owned-processes.js";
import { freshDatabase } from "./lib/fresh-database.js";
import { buildServerUnlessCurrent, SERVE_ARGUMENTS } from "./lib/server-build.js";
import { servingAddress, spawnServer } from "./lib/server-process.js";

const KEY = "sk_sandbox_conformanceCiPartnerA0000000000";
const SECOND_KEY = "sk_sandbox_conformanceCiPartnerB0000000000";

/** Every process started here, stopped at the end. */
const children: ChildProcess[] = [];

/** Starts what serves `url` and waits until it answers, keeping what it writes to standard error for the message should it not. */
function start(name: string, url: string, command: string, args: string[]): Promise<void> {
  const child = spawnOwned(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
    process.stderr.write(chunk);
  });
  return waitUntilServing(name, `${url}/health`, { child, output: () => errors });
}

function run(name: string, args: string[]): Promise<boolean> {
  console.log(`\n=== conformance: ${name} ===`);
  return new Promise((resolve) => {
    const child = spawnOwned("node_modules/.bin/tsx", ["scripts/conformance.ts", ...args], { stdio: "inherit" });
    child.on("exit", (code) => resolve(code === 0));
  });
}

/** Where the second reference server keeps its data: never the store the first one has. */
async function postgresStore(): Promise<NodeJS.ProcessEnv> {
  const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
  if (serverUrl) return { DATABASE_URL: await freshDatabase(serverUrl), PARTNER_API_DATA_DIR: "" };
  return { PARTNER_API_DATA_DIR: dataDirectory, DATABASE_URL: "" };
}

const dataDirectory = mkdtempSync(join(tmpdir(), "partner-api-conformance-"));
const [proxyPort, mockPort] = [await freePort(), await freePort()];
const serverSettings = {
  EMBED_PORT: "0",
  DASHBOARD_PORT: "0",
  PARTNER_API_KEYS: `ci_a:${KEY},ci_b:${SECOND_KEY}`,
  // The suite's partners are the two above; a demo partner would only cost start-up time.
  PARTNER_API_DEMO: "off",
  // The suite makes a few hundred calls a minute; the limits themselves are tested elsewhere.
  PARTNER_API_RATE_LIMIT_SCALE: "100",
  LOG_LEVEL: "silent",
};
try {
  await buildServerUnlessCurrent();
  const servers = [
    spawnServer([...SERVE_ARGUMENTS], { ...serverSettings, DATABASE_URL: "", PARTNER_API_DATA_DIR: "" }),
    spawnServer([...SERVE_ARGUMENTS], { ...serverSettings, ...(await postgresStore()) }),
  ];
  children.push(...servers.map(({ child }) => child));
  const document = SANDBOX_BUNDLE_PATHS.full;
  // The servers announce their own free ports; Prism is told the ones it takes.
  const [server, postgresServer] = await Promise.all([
    servingAddress("the reference server on the memory store", servers[0]!, 90_000),
    servingAddress(
      `the reference server on the PostgreSQL store (${process.env.PARTNER_API_TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
      servers[1]!,
      90_000,
    ),
  ]);
  await Promise.all([
    start("Prism's validating proxy", `http://127.0.0.1:${proxyPort}`, "node_modules/.bin/prism", [
      "proxy",
      document,
      server,
      "--errors",
      "--validate-request=false",
      "--cors=false",
      "-p",
      String(proxyPort),
      "-v",
      "error",
    ]),
    start("Prism's mock", `http://127.0.0.1:${mockPort}`, "node_modules/.bin/prism", [
      "mock",
      document,
      "--cors=false",
      "-p",
      String(mockPort),
      "-v",
      "error",
    ]),
  ]);

  const keys = ["--api-key", KEY, "--second-key", SECOND_KEY];
  const results = [
    await run("reference server", ["--base-url", server, ...keys, "--junit", "test-output/conformance-direct.xml"]),
    await run("reference server through Prism's validating proxy", [
      "--base-url",
      `http://127.0.0.1:${proxyPort}`,
      ...keys,
      "--through-prism-proxy",
      "--junit",
      "test-output/conformance-proxy.xml",
    ]),
    await run("Prism mock (stateless checks)", [
      "--base-url",
      `http://127.0.0.1:${mockPort}`,
      "--api-key",
      KEY,
      "--stateless",
      "--junit",
      "test-output/conformance-mock.xml",
    ]),
  ];
  results.push(
    await run("reference server on the PostgreSQL store", [
      "--base-url",
      postgresServer,
      ...keys,
      "--junit",
      "test-output/conformance-postgresql.xml",
    ]),
  );
  process.exitCode = results.every(Boolean) ? 0 : 1;
  console.log(`\nconformance: ${results.filter(Boolean).length} of ${results.length} runs passed`);
} catch (error) {
  // One line that names what did not come up: a stack of the waiting code says nothing more.
  if (!(error instanceof NotServingError)) throw error;
  console.error(`conformance:ci: ${error.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(children.map((child) => stopOwned(child)));
  rmSync(dataDirectory, { recursive: true, force: true });
}
