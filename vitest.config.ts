import { defineConfig } from "vitest/config";

/** Test files that must load the server's modules afresh: they check what the server patches at start-up. */
const NEEDS_FRESH_MODULES = ["test/server/validator/validator-startup-shortcuts.test.ts"];

export default defineConfig({
  test: {
    exclude: ["test/e2e/**", "node_modules/**"],
    testTimeout: 30_000,
    // A worker on the PostgreSQL store opens and migrates its database in the first hook it runs.
    hookTimeout: 30_000,
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
        },
      },
      { extends: true, test: { name: "fresh-modules", include: NEEDS_FRESH_MODULES } },
    ],
  },
});
