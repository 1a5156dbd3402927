/**
 * `npm run check:generators`: generates clients of both variants' sandbox documents with five
 * popular generators, compiles each generator's clients under strict tsc with zero errors, and
 * runs one scenario through them against the reference server in this process (sessions with
 * Idempotency-Key and replay, availability, a sandbox domain, records of both variants with
 * If-Match, name=* and name=@ filters, a typed 404). Prints a table; exits non-zero on any failure.
 *
 * Generators and compilers run at once; the scenarios one after another, as one adapter watches
 * the global fetch. Everything is written under the OS's temporary directory and removed after.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CLIENT_GENERATORS, type ClientGenerator, GENERATOR_DOCUMENTS } from "./lib/client-generators.js";
import { startGeneratorSandboxServer } from "./lib/generator-sandbox-server.js";
import { type MatrixRow, matrixPassed, matrixTable, parseMatrixArguments, type StepResult } from "./lib/generator-matrix.js";
import { runScenario, type ScenarioClient } from "./lib/generator-scenarios/scenario.js";
import { spawnOwned, stopOwned } from "./lib/owned-processes.js";

const SCENARIOS = resolve("scripts/lib/generator-scenarios");
const TSC = resolve("node_modules/typescript/bin/tsc");
/** What strict tsc checks the clients and the adapter with: the options a partner's project would have. */
const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  target: "ES2022",
  module: "ESNext",
  moduleResolution: "Bundler",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  types: [],
  skipLibCheck: true,
};

interface Outcome {
  passed: boolean;
  output: string;
}

/** Runs node with `args` to its end; its output is kept for the report of a failure. */
function runNode(args: readonly string[]): Promise<Outcome> {
  const child = spawnOwned(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  return new Promise((resolvePromise) =>
    child.once("close", (code) => void stopOwned(child).then(() => resolvePromise({ passed: code === 0, output }))),
  );
}

/** What a step threw: some clients throw the answer's body, not an Error. */
const describeThrown = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : `thrown: ${JSON.stringify(error)}`);

async function timed(step: () => Promise<Outcome>): Promise<StepResult & { output: string }> {
  const started = performance.now();
  const outcome = await step().catch((error: unknown): Outcome => ({ passed: false, output: describeThrown(error) }));
  return { ...outcome, seconds: (performance.now() - started) / 1000 };
}

/** Copies the adapter and the files it imports beside the clients; the adapter's @ts-nocheck line is for the repository's own typecheck only. */
function placeScenario(generator: ClientGenerator, directory: string): void {
  copyFileSync(join(SCENARIOS, "scenario.ts"), join(directory, "scenario.ts"));
  for (const file of generator.support ?? []) copyFileSync(join(SCENARIOS, file), join(directory, file));
  const adapter = readFileSync(join(SCENARIOS, generator.adapter), "utf8");
  writeFileSync(join(directory, "client-adapter.ts"), adapter.replace(/^\/\/ @ts-nocheck.*\n/, ""));
  writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ["**/*.ts"] }, null, 2));
}

/** Generates and compiles one generator's clients; the row's scenario step is run later. */
async function generateAndCompile(generator: ClientGenerator, directory: string, row: MatrixRow, failures: string[]): Promise<void> {
  const generated = await timed(async () => {
    mkdirSync(directory, { recursive: true });
    generator.prepare?.(directory, GENERATOR_DOCUMENTS);
    placeScenario(generator, directory);
    const outcomes = await Promise.all(generator.commands(directory, GENERATOR_DOCUMENTS).map(runNode));
    return { passed: outcomes.every(({ passed }) => passed), output: outcomes.map(({ output }) => output).join("\n") };
  });
  row.steps.generate = generated;
  if (!generated.passed) {
    failures.push(`${generator.name}: generation failed\n${generated.output}`);
    return;
  }
  const compiled = await timed(() => runNode([TSC, "--project", directory, "--pretty", "false"]));
  row.steps.compile = compiled;
  if (!compiled.passed) {
    const errors = compiled.output.split("\n").filter((line) => /error TS\d+/.test(line));
    failures.push(`${generator.name}: ${errors.length} compile errors\n${compiled.output.trim()}`);
  }
}

async function runMatrix(generators: readonly ClientGenerator[], root: string): Promise<{ rows: MatrixRow[]; failures: string[] }> {
  const failures: string[] = [];
  const rows = generators.map((generator): MatrixRow => ({ generator: generator.name, steps: {} }));
  const directories = generators.map((generator) => join(root, generator.name.replace(/[@/]/g, "_")));
  await Promise.all(generators.map((generator, index) => generateAndCompile(generator, directories[index]!, rows[index]!, failures)));

  const server = await startGeneratorSandboxServer();
  try {
    for (const [index, generator] of generators.entries()) {
      const row = rows[index]!;
      if (!row.steps.compile?.passed) continue;
      const scenario = await timed(async () => {
        const adapter = (await import(pathToFileURL(join(directories[index]!, "client-adapter.ts")).href)) as {
          scenarioClient(baseUrl: string, apiKey: string): ScenarioClient;
        };
        const client = adapter.scenarioClient(server.url, server.apiKey);
        try {
          await runScenario(client, generator.name);
        } finally {
          client.dispose?.();
        }
        const unexpected = server.errors.splice(0);
        return { passed: unexpected.length === 0, output: unexpected.map((line) => `the server logged: ${line}`).join("\n") };
      });
      row.steps.scenario = scenario;
      if (!scenario.passed) failures.push(`${generator.name}: scenario failed\n${scenario.output}`);
    }
  } finally {
    await server.close();
  }
  return { rows, failures };
}

const started = performance.now();
const options = parseMatrixArguments(
  process.argv.slice(2),
  CLIENT_GENERATORS.map(({ name }) => name),
);
const root = mkdtempSync(join(tmpdir(), "partner-api-generators-"));
try {
  const { rows, failures } = await runMatrix(
    CLIENT_GENERATORS.filter(({ name }) => options.generators.includes(name)),
    root,
  );
  for (const failure of failures) console.error(`\n${failure}`);
  console.log(`\n${matrixTable(rows)}\n\ncheck:generators took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = matrixPassed(rows) ? 0 : 1;
} finally {
  if (options.keep) console.log(`scratch directory kept: ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
