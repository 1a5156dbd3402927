import { defineConfig } from "vitest/config";

/** The contract suite, run by `npm run conformance` against a target named in the environment. */
export default defineConfig({
  test: {
    include: ["test/contract/**/*.contract.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
