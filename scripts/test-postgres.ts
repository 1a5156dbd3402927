/**
 * `npm run test:postgres`: the PostgreSQL store against a real server (CI runs it; `npm test` runs
 * the same suites on PGlite). Starts a throwaway PostgreSQL 15 cluster (scripts/lib/postgres-cluster.ts),
 * then, on it: the store suites and the multi-instance races and faults; the API tests on the
 * PostgreSQL store (each test worker on a database of its own); the conformance kit against the
 * built server on a fresh database. Stops the cluster; exits non-zero if any step failed.
 */
import { spawnSync } from "node:child_process";
import { failedTests, vitestReporters } from "./lib/failed-tests.js";
import { startCluster, stopCluster } from "./lib/postgres-cluster.js";

const cluster = await startCluster();
// The tests name the server PARTNER_API_TEST_DATABASE_URL: the servers they start read DATABASE_URL as their own setting.
const env = { ...process.env, PARTNER_API_TEST_DATABASE_URL: cluster.databaseUrl, DATABASE_URL: "", PARTNER_API_DATA_DIR: "" };
const steps: Array<[string, string[], NodeJS.ProcessEnv]> = [
  [
    "store suites, races and faults",
    [
      "node_modules/.bin/vitest",
      "run",
      "--project",
      "shared-modules",
      "test/server/store",
      "test/multi-instance",
      ...vitestReporters("test-output/postgres-store-suites.xml"),
    ],
    env,
  ],
  [
    "API tests on the PostgreSQL store",
    ["node_modules/.bin/vitest", "run", "--project", "on-postgresql", ...vitestReporters("test-output/postgres-api-tests.xml")],
    { ...env, PARTNER_API_TEST_STORE: "postgres" },
  ],
  ["the conformance kit on the PostgreSQL store", ["node_modules/.bin/tsx", "scripts/conformance-ci.ts", "--postgres-only"], env],
];
const failedSteps: string[] = [];
try {
  for (const [name, [command, ...args], stepEnv] of steps) {
    console.log(`\n=== test:postgres: ${name} ===`);
    const { status } = spawnSync(command!, args, { stdio: "inherit", env: stepEnv });
    if (status === 0) continue;
    const junit = args.find((arg) => arg.startsWith("--outputFile.junit="))?.split("=")[1];
    const tests = junit ? failedTests(junit) : [];
    failedSteps.push(`${name}${tests.length ? `:\n${tests.map((test) => `    ${test}`).join("\n")}` : ""}`);
  }
} finally {
  stopCluster(cluster.directory);
}
const failed = failedSteps.length;
console.log(`\ntest:postgres: ${steps.length - failed} of ${steps.length} steps passed`);
for (const step of failedSteps) console.log(`  FAILED ${step}`);
process.exitCode = failed === 0 ? 0 : 1;
