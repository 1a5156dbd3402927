/**
 * `npm run conformance -- --base-url URL --api-key KEY [--second-key KEY] [--variant R|D|both]
 * [--stateless] [--through-prism-proxy] [--junit FILE]`: runs the contract suite (test/contract/) against any
 * implementation, prints a per-operation report, writes JUnit XML, exits non-zero on any violation.
 */
import { spawnSync } from "node:child_process";
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
  console.error("usage: npm run conformance -- --base-url URL --api-key KEY [--second-key KEY] [--variant R|D|both] [--stateless] [--through-prism-proxy] [--junit FILE]");
  process.exit(2);
}

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
    },
  },
);
process.exit(result.status ?? 1);
