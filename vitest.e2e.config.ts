import { defineConfig } from "vitest/config";
import { scaled } from "./scripts/lib/deadlines.js";

/** Browser tests of the embedded interface in headless Chromium (`npm run test:e2e`; needs Debian's chromium). */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    // Deadlines for a page that hangs, scaled to the machine's cores and load (scripts/lib/deadlines.ts).
    testTimeout: scaled(120_000),
    hookTimeout: scaled(90_000),
    // One browser at a time: the machines have two cores.
    fileParallelism: false,
    // No retries: a test that needs one hides a fault, and a retry would meet the first try's data.
  },
});
