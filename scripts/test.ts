/**
 * `npm test`: the whole suite, in two rounds.
 *   1. The quick checks: the Redocly lint of the spec and the published documents, their Spectral
 *      lint with the OWASP rules, the breaking-change gate against the last release (`spec:diff`),
 *      Biome's lint and format check of the code, generated/ against the spec, the type check.
 *   2. The unit and API tests (vitest) and the conformance kit against the built server
 *      (`npm run conformance:ci`, the last release's kit among its runs).
 * No step writes what another reads, so the steps of a round run at once: each waits on child
 * processes and sockets for much of its time, which the other fills. A failing first round stops the
 * run, as the checks did when they ran one after the other. Each step's output is printed whole when
 * it ends, then a summary with each step's time; exits non-zero if any step failed.
 */
import { performance } from "node:perf_hooks";
import { failedTests, vitestReporters } from "./lib/failed-tests.js";
import { spawnOwned } from "./lib/owned-processes.js";

interface Step {
  name: string;
  command: string;
  args: string[];
}

/** Where the vitest step's failures are read from for the summary. */
const VITEST_JUNIT = "test-output/vitest-junit.xml";

const npmRun = (script: string): Step => ({ name: `npm run ${script}`, command: "npm", args: ["run", "--silent", script] });

const ROUNDS: Step[][] = [
  [npmRun("lint:spec"), npmRun("lint:owasp"), npmRun("spec:diff"), npmRun("lint:code"), npmRun("check:generated"), npmRun("typecheck")],
  [{ name: "vitest run", command: "node_modules/.bin/vitest", args: ["run", ...vitestReporters(VITEST_JUNIT)] }, npmRun("conformance:ci")],
];

interface Outcome {
  step: Step;
  passed: boolean;
  seconds: number;
}

function run(step: Step): Promise<Outcome> {
  const started = performance.now();
  // Its own process group, stopped with all it started should this run be stopped.
  const child = spawnOwned(step.command, step.args, { stdio: ["ignore", "pipe", "pipe"] });
  const output: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const outcome = { step, passed: code === 0, seconds: (performance.now() - started) / 1000 };
      process.stdout.write(
        `\n=== ${step.name} (${outcome.passed ? "passed" : "FAILED"}, ${outcome.seconds.toFixed(1)} s) ===\n${Buffer.concat(output).toString()}`,
      );
      resolve(outcome);
    });
  });
}

const started = performance.now();
const outcomes: Outcome[] = [];
for (const round of ROUNDS) {
  console.log(`\nrunning at once: ${round.map((step) => step.name).join(", ")}`);
  outcomes.push(...(await Promise.all(round.map(run))));
  if (outcomes.some((outcome) => !outcome.passed)) break;
}

console.log("\nnpm test:");
for (const { step, passed, seconds } of outcomes)
  console.log(`  ${passed ? "passed" : "FAILED"}  ${seconds.toFixed(1).padStart(6)} s  ${step.name}`);
// Read only when this run's vitest step failed: the report of an earlier run may still be there.
if (outcomes.some(({ step, passed }) => !passed && step.command.endsWith("vitest")))
  for (const test of failedTests(VITEST_JUNIT)) console.log(`    failed: ${test}`);
console.log(`  total ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = outcomes.every((outcome) => outcome.passed) ? 0 : 1;
