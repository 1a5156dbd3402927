import { defineConfig } from "vitest/config";
import { scaled } from "./scripts/lib/deadlines.js";

/** Test files that must load the server's modules afresh: they check what the server patches at start-up. */
const NEEDS_FRESH_MODULES = ["test/server/api/validator/validator-startup-shortcuts.test.ts"];

/**
 * The API tests that run a server on a store, run a second time on the PostgreSQL store
 * (test/support/test-persistence.ts): on PGlite in `npm test`, on a PostgreSQL server in
 * `npm run test:postgres`. Not here: the property suite (it compares the memory store's insides)
 * and what starts no store.
 */
const ON_EVERY_STORE = [
  "test/client/{calls-and-errors,pagination,retry,webhooks}.test.ts",
  "test/server/domain/{users/users,domains/domains,transfers/transfers-and-catalog,transfers/transfer-out,sandbox/sandbox,webhooks/webhooks,webhooks/events-api,webhooks/dispatcher}.test.ts",
  "test/server/domain/dns/*.test.ts",
  "test/server/domain/zone-files/zone-files-api.test.ts",
  "test/server/embed/*.test.ts",
  // Not path-spellings: which spelling reaches which route is the router's, whatever the store.
  "test/server/api/http/{auth-and-http,restricted-keys,request-body-text,integer-query,store-unavailable,idempotency,entity-tags,forged-cursors}.test.ts",
  "test/server/platform/rate-limits/rate-limits.test.ts",
  "test/server/store/partner-shares.test.ts",
  "test/server/partners/keys/database-keys.test.ts",
  "test/server/dashboard/*.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["test/e2e/**", "node_modules/**"],
    // Deadlines for a test that hangs, never a measure of speed: scaled to the machine's cores and
    // load when the run starts (scripts/lib/deadlines.ts), since npm test runs beside other work.
    testTimeout: scaled(60_000),
    // A worker on the PostgreSQL store opens and migrates its database in the first hook it runs.
    hookTimeout: scaled(90_000),
    // Most test files wait on sockets, timers and child processes for much of their time: three at
    // once keep the two cores the machines have busy (the default for `vitest run` is one fewer than
    // the cores). Measured with npm test's own summary of each step's time.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // The files share each worker's loaded modules: isolated, every file loads the server and the
        // validator again, the larger part of vitest's time (compare the import time vitest reports).
        test: {
          name: "shared-modules",
          include: ["test/**/*.test.ts"],
          exclude: [...NEEDS_FRESH_MODULES, "test/e2e/**", "node_modules/**"],
          isolate: false,
          env: { PARTNER_API_TEST_STORE: "memory" },
        },
      },
      { extends: true, test: { name: "fresh-modules", include: NEEDS_FRESH_MODULES, env: { PARTNER_API_TEST_STORE: "memory" } } },
      {
        extends: true,
        test: {
          name: "on-postgresql",
          include: ON_EVERY_STORE,
          isolate: false,
          env: { PARTNER_API_TEST_STORE: process.env.PARTNER_API_TEST_STORE === "postgres" ? "postgres" : "pglite" },
        },
      },
    ],
  },
});
