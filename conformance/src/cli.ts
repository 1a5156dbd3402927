#!/usr/bin/env node
/**
 * partner-api-conformance: checks an implementation of the Partner Domain and DNS Service API
 * against every rule of the catalogue, over HTTP. Exit 0 when every applicable check passed, 1 when
 * one failed, 2 when the run could not start (usage, an unreachable URL, a refused key).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { PreflightError } from "./preflight.js";
import { CatalogueError, runKit, type KitRunOptions } from "./runner.js";
import { describeTarget, TargetError } from "./target.js";

const USAGE = `usage: partner-api-conformance --base-url URL --api-key KEY [--second-key KEY] [--revoked-key KEY]
  [--variant R|D|both] [--stateless] [--through-prism-proxy] [--receiver-url URL --receiver-port PORT]
  [--only PATTERN] [--bail] [--junit FILE] [--summary FILE] [--quiet]`;

function fail(line: string): never {
  console.error(`conformance: ${line}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      "second-key": { type: "string" },
      "revoked-key": { type: "string" },
      variant: { type: "string", default: "both" },
      stateless: { type: "boolean", default: false },
      "through-prism-proxy": { type: "boolean", default: false },
      "receiver-url": { type: "string" },
      "receiver-port": { type: "string" },
      only: { type: "string" },
      bail: { type: "boolean", default: false },
      junit: { type: "string", default: "test-output/conformance-junit.xml" },
      summary: { type: "string", default: "test-output/conformance-summary.md" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message} (--help lists the options)`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values["base-url"] || !values["api-key"]) fail("--base-url and --api-key are required (--help lists the options)");
const receiverPort = values["receiver-port"] === undefined ? 0 : Number(values["receiver-port"]);
if (!Number.isInteger(receiverPort) || receiverPort < 0 || receiverPort > 65535) fail("--receiver-port must be a port number");
if (values["receiver-url"] && !values["receiver-port"]) fail("--receiver-url needs --receiver-port, the local port it forwards to");

let options: KitRunOptions;
try {
  options = {
    target: describeTarget({
      baseUrl: values["base-url"] as string,
      apiKey: values["api-key"] as string,
      secondKey: values["second-key"] as string | undefined,
      revokedKey: values["revoked-key"] as string | undefined,
      variant: values.variant as string,
      stateless: values.stateless as boolean,
      throughPrismProxy: values["through-prism-proxy"] as boolean,
      receiverUrl: values["receiver-url"] as string | undefined,
      receiverPort,
    }),
    ...(values.only ? { only: new RegExp(values.only as string) } : {}),
    bail: values.bail as boolean,
    quiet: values.quiet as boolean,
  };
} catch (error) {
  if (error instanceof TargetError || error instanceof SyntaxError) fail(error.message);
  throw error;
}

try {
  const report = await runKit(options);
  for (const [file, text] of [
    [values.junit as string, report.junit],
    [values.summary as string, report.markdown],
  ] as const) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  console.log(`reports: ${values.junit}, ${values.summary}`);
  process.exitCode = report.passed ? 0 : 1;
} catch (error) {
  if (error instanceof PreflightError) fail(error.message);
  if (error instanceof CatalogueError) {
    console.error(`conformance: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
