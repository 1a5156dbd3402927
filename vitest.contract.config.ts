import { defineConfig } from "vitest/config";

/** The contract suite, run by `npm run conformance` against a target named in the environment. */
export default defineConfig({
  test: {
    include: ["test/contract/**/*.contract.ts"],
    // Long enough for the pacer to wait out rate-limit windows: against the real limits a test of
    // the smallest bucket (10 a minute) with its 40 broken bodies waits about four of them.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
