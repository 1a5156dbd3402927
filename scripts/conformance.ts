/**
 * `npm run conformance -- --base-url URL --api-key KEY [--second-key KEY] [--variant R|D|both]
 * [--stateless] [--through-prism-proxy] [--junit FILE]`: runs the contract suite (test/contract/) against any
 * implementation, prints a per-operation report, writes JUnit XML, exits non-zero on any violation.
 * It paces itself by the rate limits the target reports (test/contract/support/rate-limit-pacer.ts)
 * and ends by saying how long it waited for them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "second-key": { type: "string" },
    variant: { type: "string", default: "both" },
    stateless: { type: "boolean", default: false },
    "through-prism-proxy": { type: "boolean", default: false },
    junit: { type: "string", default: "test-output/conformance-junit.xml" },
    seed: { type: "string" },
  },
});
if (!values["base-url"] || !values["api-key"]) {
  console.error(
    "usage: npm run conformance -- --base-url URL --api-key KEY [--second-key KEY] [--variant R|D|both] [--stateless] [--through-prism-proxy] [--junit FILE]",
  );
  process.exit(2);
}

const pacingDir = mkdtempSync(join(tmpdir(), "partner-conformance-"));
const pacingReport = join(pacingDir, "pacing.txt");
const result = spawnSync(
  "node_modules/.bin/vitest",
  ["run", "--config", "vitest.contract.config.ts", "--reporter=verbose", "--reporter=junit", `--outputFile.junit=${values.junit}`],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      CONTRACT_BASE_URL: values["base-url"],
      CONTRACT_API_KEY: values["api-key"],
      CONTRACT_SECOND_KEY: values["second-key"] ?? "",
      CONTRACT_VARIANT: values.variant,
      CONTRACT_STATELESS: values.stateless ? "1" : "0",
      CONTRACT_THROUGH_PRISM_PROXY: values["through-prism-proxy"] ? "1" : "0",
      ...(values.seed ? { CONTRACT_SEED: values.seed } : {}),
      CONTRACT_PACING_REPORT: pacingReport,
    },
  },
);
try {
  console.log(readFileSync(pacingReport, "utf8"));
} catch {
  // The suite ended before its last hook: vitest has said why.
}
rmSync(pacingDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
