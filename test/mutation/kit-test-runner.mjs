/**
 * A StrykerJS test runner that runs the conformance kit's checks against the reference server
 * in-process, as test/conformance-kit/reference-server.test.ts does, without vitest.
 *
 * Why not @stryker-mutator/vitest-runner: it starts a fresh vitest worker for each mutant, so
 * each mutant paid for evaluating the server's and the kit's modules again and for compiling the
 * published documents' schemas (about 8 s of the 11 s a mutant took here, against a few hundred
 * milliseconds of checks). This runner loads them once per Stryker worker process and starts a
 * fresh target (store, listeners, kit session) for each mutant, so no mutant sees another's data.
 *
 * Checks that fail on the unmutated server (a check still being written) cannot kill a mutant:
 * the dry run reports them as skipped and names them in the log, instead of aborting the run.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { commonTokens, declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";
import { DryRunStatus, determineHitLimitReached, TestStatus, toMutantRunResult } from "@stryker-mutator/api/test-runner";

/** Stryker's instrumented code reads the active mutant and records coverage here (INSTRUMENTER_CONSTANTS.NAMESPACE). */
const NAMESPACE = "__stryker__";

const sandboxModule = (path) => import(pathToFileURL(resolve(path)).href);

class KitTestRunner {
  static inject = [commonTokens.logger];
  /** @type {Map<string, any>} the checks by id, in the kit's run order */
  checks = new Map();
  /** ids of the checks that failed on the unmutated server */
  brokenChecks = new Set();
  /** @type {Map<string, number>} how long each check took in the dry run, in milliseconds */
  durations = new Map();

  constructor(log) {
    this.log = log;
  }

  capabilities() {
    // Each mutant gets a fresh target; module top-level code runs once, and mutants only it
    // reaches are left out of the run (ignoreStatic in stryker.config.mjs).
    return { reloadEnvironment: true };
  }

  async init() {
    process.env.PARTNER_API_TEST_STORE ??= "memory";
    const { register } = await import("tsx/esm/api");
    register();
    const [{ ALL_CHECKS }, { runOrder }, { KitSession }, { describeTarget }, server] = await Promise.all([
      sandboxModule("conformance/src/checks/index.ts"),
      sandboxModule("conformance/src/runner.ts"),
      sandboxModule("conformance/src/session.ts"),
      sandboxModule("conformance/src/target.ts"),
      sandboxModule("test/support/kit-target-server.ts"),
    ]);
    // Checks known to fail on the unmutated server can be left out up front (a dry run waits for each to fail).
    const leftOut = new Set((process.env.STRYKER_SKIP_CHECKS ?? "").split(",").filter(Boolean));
    for (const check of runOrder(ALL_CHECKS)) if (!leftOut.has(check.id)) this.checks.set(check.id, check);
    this.startTarget = async () => {
      // As the kit meets another implementation: no response validation turning a wrong answer into a 500.
      const target = await server.startKitTargetServer({ validateResponses: false });
      const session = new KitSession(describeTarget({ baseUrl: target.apiUrl, ...server.KIT_KEYS }));
      return {
        target,
        session,
        close: async () => {
          await session.close().catch(() => undefined);
          await target.close();
        },
      };
    };
  }

  get ns() {
    globalThis[NAMESPACE] ??= {};
    return globalThis[NAMESPACE];
  }

  /**
   * Runs the checks on a fresh target, stopping at the first failure unless `disableBail`. A check
   * fails as in the vitest file: its own assertion, or an unexpected error the server logged.
   */
  async runChecks(ids, { disableBail, recordCoverage }) {
    const { target, session, close } = await this.startTarget();
    const tests = [];
    try {
      for (const id of ids) {
        const check = this.checks.get(id);
        if (!check) continue;
        if (recordCoverage) this.ns.currentTestId = id;
        const result = await session.runCheck(check);
        if (recordCoverage) this.ns.currentTestId = undefined;
        const errors = target.errors.splice(0);
        const failureMessage =
          result.outcome === "failed" ? result.message : errors.length ? `the server logged unexpected errors: ${errors.join("\n")}` : null;
        const base = { id, name: id, timeSpentMs: result.milliseconds };
        if (failureMessage) {
          tests.push({ ...base, status: TestStatus.Failed, failureMessage });
          if (!disableBail) break;
        } else tests.push({ ...base, status: result.outcome === "passed" ? TestStatus.Success : TestStatus.Skipped });
      }
    } finally {
      this.ns.currentTestId = undefined;
      await close();
    }
    return tests;
  }

  async dryRun() {
    this.ns.activeMutant = undefined;
    // The instrumented modules hold on to this object (and recorded in it what ran as they loaded).
    this.ns.mutantCoverage ??= { static: {}, perTest: {} };
    try {
      const tests = await this.runChecks([...this.checks.keys()], { disableBail: true, recordCoverage: true });
      for (const test of tests) this.durations.set(test.id, test.timeSpentMs);
      for (const test of tests)
        if (test.status === TestStatus.Failed) {
          this.brokenChecks.add(test.id);
          this.log.warn(`${test.id} fails on the unmutated server, so it is left out: ${test.failureMessage}`);
          delete this.ns.mutantCoverage.perTest[test.id];
          Object.assign(test, { status: TestStatus.Skipped });
          delete test.failureMessage;
        }
      return { status: DryRunStatus.Complete, tests, mutantCoverage: this.ns.mutantCoverage };
    } catch (error) {
      return { status: DryRunStatus.Error, errorMessage: String(error?.stack ?? error) };
    }
  }

  async mutantRun(options) {
    const ids = (options.testFilter ?? [...this.checks.keys()]).filter((id) => !this.brokenChecks.has(id));
    // Quickest first (as the dry run timed them): most mutants fail some check, and the first failure
    // ends the run. The destructive checks (a sandbox reset) still come last, as in the kit's run order.
    const rank = (id) => [this.checks.get(id)?.destructive ? 1 : 0, this.durations.get(id) ?? 0];
    ids.sort((a, b) => {
      const [destructiveA, timeA] = rank(a);
      const [destructiveB, timeB] = rank(b);
      return destructiveA - destructiveB || timeA - timeB;
    });
    const ns = this.ns;
    ns.activeMutant = options.activeMutant.id;
    ns.hitLimit = options.hitLimit;
    ns.hitCount = options.hitLimit === undefined ? undefined : 0;
    try {
      const tests = await this.runChecks(ids, { disableBail: options.disableBail, recordCoverage: false });
      const timeout = determineHitLimitReached(ns.hitCount, ns.hitLimit);
      return toMutantRunResult(timeout ?? { status: DryRunStatus.Complete, tests });
    } catch (error) {
      // The mutant broke the target's start-up or shutdown: the kit could not even begin, which it reports.
      return toMutantRunResult({
        status: DryRunStatus.Complete,
        tests: [
          {
            id: ids[0],
            name: ids[0],
            timeSpentMs: 0,
            status: TestStatus.Failed,
            failureMessage: `the target could not start or stop: ${error}`,
          },
        ],
      });
    } finally {
      ns.activeMutant = undefined;
      ns.hitLimit = undefined;
      ns.hitCount = undefined;
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, "conformance-kit", KitTestRunner)];
