/**
 * `npm run test:postgres`: the PostgreSQL store against a real server (CI runs it; `npm test` runs
 * the same suites on PGlite). Starts a throwaway PostgreSQL 15 cluster (scripts/lib/postgres-cluster.ts),
 * then, on it: the store suites and the multi-instance races and faults; the API tests on the
 * PostgreSQL store (each test worker on a database of its own); the contract suite against the
 * built server on a fresh database. Stops the cluster; exits non-zero if any step failed.
 */
import { spawnSync } from "node:child_process";
import { startCluster, stopCluster } from "./lib/postgres-cluster.js";

const cluster = await startCluster();
// The tests name the server PARTNER_API_TEST_DATABASE_URL: the servers they start read DATABASE_URL as their own setting.
const env = { ...process.env, PARTNER_API_TEST_DATABASE_URL: cluster.databaseUrl, DATABASE_URL: "", PARTNER_API_DATA_DIR: "" };
const steps: Array<[string, string[], NodeJS.ProcessEnv]> = [
  [
    "store suites, races and faults",
    ["node_modules/.bin/vitest", "run", "--project", "shared-modules", "test/server/store", "test/multi-instance"],
    env,
  ],
  [
    "API tests on the PostgreSQL store",
    ["node_modules/.bin/vitest", "run", "--project", "on-postgresql"],
    { ...env, PARTNER_API_TEST_STORE: "postgres" },
  ],
  ["contract suite on the PostgreSQL store", ["node_modules/.bin/tsx", "scripts/conformance-ci.ts"], env],
];
let failed = 0;
try {
  for (const [name, [command, ...args], stepEnv] of steps) {
    console.log(`\n=== test:postgres: ${name} ===`);
    const { status } = spawnSync(command!, args, { stdio: "inherit", env: stepEnv });
    if (status !== 0) failed++;
  }
} finally {
  stopCluster(cluster.directory);
}
console.log(`\ntest:postgres: ${steps.length - failed} of ${steps.length} steps passed`);
process.exitCode = failed === 0 ? 0 : 1;
