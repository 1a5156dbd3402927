import { defineConfig } from "vitest/config";

/** The contract suite of release 1.0.0, as it was (commit 8b0b8db's vitest.contract.config.ts), run on its own files. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["*.contract.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
