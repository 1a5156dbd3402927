/**
 * `npm run conformance:ci [-- --postgres-only]`: the conformance kit (conformance/src/cli.ts, from
 * source) three ways, as CI runs it on every push:
 *   1. against the built reference server (memory store) through Prism's validating proxy
 *      (`--errors`: any answer Prism finds non-conforming becomes an error the kit reports);
 *   2. against the Prism mock, stateless checks only (the spec's own examples conform);
 *   3. against the built reference server on the PostgreSQL store: PGlite in a directory of its own,
 *      or a fresh database on the server PARTNER_API_TEST_DATABASE_URL names;
 *   4. the kit of the last release (releases/<version>/conformance-kit, with that release's documents)
 *      against the built reference server on the memory store: a partner's tests written against the
 *      last release still pass today (docs/releases.md).
 * `--postgres-only` (what `npm run test:postgres` runs on a real PostgreSQL) runs the third alone.
 * The kit runs directly against the reference server in vitest (test/conformance-kit/reference-server.test.ts,
 * in-process) and in `npm run conformance:mutants` (from source); here the built server is checked
 * through the proxy, which forwards every request but the three kinds it answers itself.
 * The reference servers have two partners and a revoked key (scripts/lib/conformance-partners.ts),
 * so no check is left not applicable for want of a key. Each run writes its JUnit XML and Markdown
 * summary to test-output/conformance-<run>.xml and .md.
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
import { writeConformancePartners } from "./lib/conformance-partners.js";
import { lastRelease, runReleaseKit } from "./lib/release-kits.js";
import { buildServerUnlessCurrent, SERVE_ARGUMENTS } from "./lib/server-build.js";
import { servingAddress, spawnServer } from "./lib/server-process.js";

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

/** One run of the kit; `report` names its JUnit XML and Markdown summary in test-output/. */
function run(name: string, report: string, args: string[]): Promise<boolean> {
  console.log(`\n=== conformance: ${name} ===`);
  const reports = ["--junit", `test-output/conformance-${report}.xml`, "--summary", `test-output/conformance-${report}.md`];
  return new Promise((resolve) => {
    const child = spawnOwned("node_modules/.bin/tsx", ["conformance/src/cli.ts", ...args, ...reports], { stdio: "inherit" });
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
const keysDirectory = mkdtempSync(join(tmpdir(), "partner-api-conformance-keys-"));
const partners = writeConformancePartners(keysDirectory);
const [proxyPort, mockPort] = [await freePort(), await freePort()];
const postgresOnly = process.argv.includes("--postgres-only");
const serverSettings = {
  DASHBOARD_PORT: "0",
  PARTNER_API_CONFIG: partners.file,
  PARTNER_API_KEYS: "",
  // The kit's partners are those of the file; a demo partner would only cost start-up time.
  PARTNER_API_DEMO: "off",
  // The kit makes a few hundred calls a minute; its limits checks read the limits the server reports.
  PARTNER_API_RATE_LIMIT_SCALE: "100",
  LOG_LEVEL: "silent",
};
try {
  await buildServerUnlessCurrent();
  // Each serves the embed host its login_url opens (the kit's embed checks open it): EMBED_PORT=0 would turn it off.
  const [embedPort, postgresEmbedPort] = [await freePort(), await freePort()];
  const postgresServer = spawnServer([...SERVE_ARGUMENTS], {
    ...serverSettings,
    EMBED_PORT: String(postgresEmbedPort),
    ...(await postgresStore()),
  });
  const memoryServer = postgresOnly
    ? null
    : spawnServer([...SERVE_ARGUMENTS], { ...serverSettings, EMBED_PORT: String(embedPort), DATABASE_URL: "", PARTNER_API_DATA_DIR: "" });
  children.push(...[postgresServer, memoryServer].flatMap((server) => (server ? [server.child] : [])));
  const document = SANDBOX_BUNDLE_PATHS.full;
  // The servers announce their own free ports; Prism is told the ones it takes.
  const [postgresUrl, memoryUrl] = await Promise.all([
    servingAddress(
      `the reference server on the PostgreSQL store (${process.env.PARTNER_API_TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
      postgresServer,
      90_000,
    ),
    memoryServer ? servingAddress("the reference server on the memory store", memoryServer, 90_000) : null,
  ]);
  const results: boolean[] = [];
  if (memoryUrl !== null) {
    await Promise.all([
      start("Prism's validating proxy", `http://127.0.0.1:${proxyPort}`, "node_modules/.bin/prism", [
        "proxy",
        document,
        memoryUrl,
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
    results.push(
      await run("reference server through Prism's validating proxy", "proxy", [
        "--base-url",
        `http://127.0.0.1:${proxyPort}`,
        ...partners.keyOptions,
        "--through-prism-proxy",
      ]),
      await run("Prism mock (stateless checks)", "mock", [
        "--base-url",
        `http://127.0.0.1:${mockPort}`,
        "--api-key",
        partners.key,
        "--stateless",
      ]),
    );
    const release = lastRelease();
    console.log(`\n=== conformance: the kit of release ${release} against today's reference server ===`);
    results.push(
      await runReleaseKit(release, {
        baseUrl: memoryUrl,
        apiKey: partners.key,
        secondKey: partners.secondKey,
        junit: `test-output/conformance-release-${release}.xml`,
      }),
    );
  }
  results.push(await run("reference server on the PostgreSQL store", "postgresql", ["--base-url", postgresUrl, ...partners.keyOptions]));
  process.exitCode = results.every(Boolean) ? 0 : 1;
  console.log(`\nconformance: ${results.filter(Boolean).length} of ${results.length} runs passed`);
} catch (error) {
  // One line that names what did not come up: a stack of the waiting code says nothing more.
  if (!(error instanceof NotServingError)) throw error;
  console.error(`conformance:ci: ${error.message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(children.map((child) => stopOwned(child)));
  for (const directory of [dataDirectory, keysDirectory]) rmSync(directory, { recursive: true, force: true });
}
