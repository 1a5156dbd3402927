// @ts-check
/** The areas by name, and where each lives in server/. */
const AREA_FOLDERS = { dns: "domain/dns", domains: "domain/domains", auth: "partners/keys" };
const AREAS = Object.keys(AREA_FOLDERS);
/** STRYKER_AREAS=auth,dns mutates only those areas (a quicker run); the report is named after them. */
const areas = (process.env.STRYKER_AREAS ?? AREAS.join(",")).split(",").filter((area) => AREAS.includes(area));
const reportName = areas.length === AREAS.length ? "mutation" : `mutation-${areas.join("-")}`;
/**
 * STRYKER_RUNNER=vitest runs the mutants through vitest (vitest.stryker.config.ts) instead of the
 * kit's own runner: about twenty times slower per mutant, and the way to add the areas' unit and API
 * tests as a second measure (STRYKER_MEASURE=with-unit-tests).
 */
const throughVitest = process.env.STRYKER_RUNNER === "vitest";

/**
 * Mutation testing of the reference server's auth, domains and DNS code against the conformance
 * kit (docs/mutation-testing.md): `npm run test:mutation`. Each mutant is a small fault planted in
 * the server; one the kit's checks let through is a fault another implementation could ship unseen.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...(throughVitest
    ? {
        testRunner: "vitest",
        vitest: { configFile: "vitest.stryker.config.ts", related: false },
      }
    : { testRunner: "conformance-kit" }),
  plugins: [
    ...(throughVitest ? ["@stryker-mutator/vitest-runner"] : ["./test/mutation/kit-test-runner.mjs"]),
    "./test/mutation/message-ignorer.mjs",
    "./test/mutation/unobservable-ignorer.mjs",
    "./test/mutation/progress-log-reporter.mjs",
  ],
  ignorers: ["message-wording", "unobservable-code"],
  mutate: areas.map((area) => `server/${AREA_FOLDERS[/** @type {keyof typeof AREA_FOLDERS} */ (area)]}/**/*.ts`),
  // What the tests load; the rest of the checkout (built bundles, docs, reports, benches) is not copied.
  ignorePatterns: ["/dist", "/docs", "/bench", "/client", "/test-output", "/data", "/.ci"],
  tempDirName: "test-output/stryker/sandboxes",
  coverageAnalysis: "perTest",
  // Two cores shared with other work: one mutant at a time unless STRYKER_CONCURRENCY says more.
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
  // A mutant reached only while the server's modules load would need the kit's whole run with the
  // modules loaded afresh; they are left out (reported as ignored) and the wiring is exercised by every check.
  ignoreStatic: true,
  // Generous: the kit waits on sockets and webhook deliveries, and the machine is shared.
  timeoutMS: 30_000,
  timeoutFactor: 3,
  reporters: ["html", "json", "clear-text", "progress", "progress-log"],
  htmlReporter: { fileName: `test-output/stryker/${reportName}.html` },
  jsonReporter: { fileName: `test-output/stryker/${reportName}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 80, break: null },
};
