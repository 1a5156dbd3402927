import { defineConfig } from "vitest/config";

/**
 * The tests StrykerJS runs against each mutant of server/partners/keys, server/domain/domains and server/domain/dns
 * (stryker.config.mjs): the conformance kit's checks against the reference server in-process,
 * the issue's measure of what the kit catches. STRYKER_MEASURE=with-unit-tests adds the areas'
 * own unit and API tests, a second measure.
 */
const KIT = ["test/conformance-kit/reference-server.test.ts"];
const AREA_TESTS = ["test/server/partners/keys/*.test.ts", "test/server/domain/domains/*.test.ts", "test/server/domain/dns/*.test.ts"];

export default defineConfig({
  test: {
    include: process.env.STRYKER_MEASURE === "with-unit-tests" ? [...KIT, ...AREA_TESTS] : KIT,
    exclude: ["node_modules/**"],
    // A mutant that loops or waits forever is timed out by Stryker, whose limit is set from the dry run's
    // times; these only stop a test that hangs in the dry run itself.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The kit's target starts once per run and the server's modules load once per worker.
    isolate: false,
    env: {
      PARTNER_API_TEST_STORE: "memory",
      // As the kit meets another implementation: answers the server's own response validator would
      // have turned into 500s reach the checks unchanged.
      PARTNER_API_VALIDATE_RESPONSES: "off",
    },
  },
});
