/**
 * `npm run conformance:mutants [-- --only PATTERN] [--sample N] [--prism] [--report FILE]`: does the
 * conformance kit catch broken implementations? Each patch of test/conformance-kit/mutants/ (first
 * line `# what is wrong`) is one realistic fault. For each: a scratch copy of the tree with the
 * patch applied, the server started from source there with its own response validation off
 * (PARTNER_API_VALIDATE_RESPONSES=off, as another implementation has none), and the kit of this
 * checkout (copied once when the run begins) run against it. The kit exiting 1 (a check failed) or 2 (its preflight refused the
 * target) is a detection. The unpatched tree is run first and must pass: a kit that fails
 * everything would detect everything. docs/conformance-mutants.md says more.
 *
 * `--prism` adds a second pass per mutant: a fresh server with Prism's validating proxy in front, the
 * kit's traffic (every check) sent through it, and Prism counted as detecting the mutant when its log
 * reports a violation it did not report on the unpatched tree. The kit's verdict is the first pass's.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { markdownCell } from "../conformance/src/reports.js";
import { SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { Deadline } from "./lib/deadlines.js";
import { freePort, lastOutput, NotServingError, waitUntilServing } from "./lib/local-ports.js";
import { writeConformancePartners } from "./lib/conformance-partners.js";
import { dayNumber, prismViolations, readCorpus, sampleOf, type Mutant } from "./lib/mutation-corpus.js";
import { spawnOwned, stopOwned } from "./lib/owned-processes.js";
import { servingAddress, spawnServer, type ServerProcess } from "./lib/server-process.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = join(ROOT, "test", "conformance-kit", "mutants");
/** What the server needs to start from source; node_modules is linked, never copied. */
const COPIED = ["server", "generated", "conformance", "spec", "scripts", "package.json", "tsconfig.json"];
/** Mutants run at once: each is a server and a kit, on a machine of two shared cores. */
const AT_ONCE = 2;
/** A server from source starts in seconds; more only on a loaded machine (scaled). */
const START_BASE_MS = 120_000;
/** A whole kit run on a quiet machine takes about a minute with the rate scale; a hang ends here. */
const KIT_BASE_MS = 600_000;

const USAGE = "usage: npm run conformance:mutants [-- --only PATTERN] [--sample N] [--prism] [--report FILE]";

function usage(message: string): never {
  console.error(`conformance:mutants: ${message}\n${USAGE}`);
  process.exit(2);
}

let values: { only?: string; sample?: string; prism: boolean; report: string };
try {
  values = parseArgs({
    options: {
      only: { type: "string" },
      sample: { type: "string" },
      prism: { type: "boolean", default: false },
      report: { type: "string", default: "test-output/conformance-mutants.md" },
    },
  }).values as typeof values;
} catch (error) {
  usage((error as Error).message);
}
const sampleSize = values.sample === undefined ? null : Number(values.sample);
if (sampleSize !== null && !(Number.isInteger(sampleSize) && sampleSize > 0))
  usage(`--sample must be a positive whole number (got ${values.sample})`);
let only: RegExp | null = null;
try {
  only = values.only === undefined ? null : new RegExp(values.only);
} catch (error) {
  usage(`--only: ${(error as Error).message}`);
}

type Outcome =
  /** The kit failed a check: it caught the fault. */
  | "detected"
  /** The kit's preflight refused the target (exit 2): caught, before any check. */
  | "refused"
  /** The kit passed: the fault went through. */
  | "missed"
  /** The corpus or the run is at fault, not the kit: a patch that does not apply, a server that does not start, a kit that hung or crashed. */
  | "error";

interface MutantResult {
  mutant: Mutant;
  outcome: Outcome;
  /** The checks that failed (the first, with --bail), or what went wrong. */
  detail: string;
  /** The end of what the kit printed, for a run that went wrong. */
  kitOutput?: string;
  /** Prism's verdict with --prism: the violations it reported beyond the unpatched tree's. */
  prism?: { detected: boolean; violations: string[] };
  seconds: number;
}

/** Scratch copies still on disk, removed at the end, and on Ctrl-C before the owned processes go. */
const scratchRoot = mkdtempSync(join(tmpdir(), "partner-api-mutants-"));
const removeScratch = () => rmSync(scratchRoot, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.once(signal, () => {
    removeScratch();
    // Ends this process as the signal would have, unless the owned processes' handler (after this one) does.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
process.once("exit", removeScratch);

/** A copy of the tree's server and what it reads, node_modules linked; the patch applied, unless none. */
function scratchCopy(name: string, patch: string | null): string {
  const directory = join(scratchRoot, name);
  mkdirSync(directory);
  for (const entry of COPIED)
    cpSync(join(ROOT, entry), join(directory, entry), { recursive: true, filter: (source) => basename(source) !== "node_modules" });
  symlinkSync(join(ROOT, "node_modules"), join(directory, "node_modules"));
  if (patch !== null) {
    // The ceiling keeps git from taking a repository around the scratch folder for the patch's root.
    const applied = spawnSync("git", ["apply", "--whitespace=nowarn", patch], {
      cwd: directory,
      encoding: "utf8",
      env: { ...process.env, GIT_CEILING_DIRECTORIES: scratchRoot },
    });
    if (applied.status !== 0)
      throw new CorpusError(
        `the patch does not apply to this tree: ${(applied.stderr || applied.stdout).trim().split("\n").slice(0, 3).join(" / ")}`,
      );
  }
  return directory;
}

class CorpusError extends Error {}

interface Started {
  server: ServerProcess;
  url: string;
  /** The kit's key options for the server's partners. */
  keyOptions: string[];
}

/**
 * The server of `directory` from source, as `npm start` would run it but on ports of its own and
 * without validating its answers. The revoked key is revoked as `npm run keys -- revoke` does it:
 * gone from the partners file the running server follows, after it accepted it at start-up.
 */
async function startServer(directory: string): Promise<Started> {
  const partners = writeConformancePartners(directory, { revokeLater: true });
  const server = spawnServer(
    ["--disable-warning=ExperimentalWarning", "--import", "tsx", join(directory, "server", "main.ts")],
    {
      PARTNER_API_CONFIG: partners.file,
      PARTNER_API_KEYS: "",
      PARTNER_API_VALIDATE_RESPONSES: "off",
      PARTNER_API_RATE_LIMIT_SCALE: "100",
      PARTNER_API_DEMO: "off",
      PARTNER_API_ENVIRONMENT: "sandbox",
      PARTNER_API_VARIANTS: "R,D",
      DATABASE_URL: "",
      PARTNER_API_DATA_DIR: "",
      // login_url opens a page on the embed host: the kit's embed checks need one.
      EMBED_PORT: String(await freePort()),
      LOG_LEVEL: "error",
    },
    { cwd: directory },
  );
  try {
    const url = await servingAddress(`the server of ${basename(directory)}`, server, START_BASE_MS);
    partners.revoke();
    return { server, url, keyOptions: partners.keyOptions };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

interface KitRun {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** The kit of this checkout, as it was when the run began, against `url`: up to the first failure, or every check through Prism. */
async function runKit(url: string, keyOptions: string[], directory: string, throughPrism: boolean): Promise<KitRun> {
  const args = [
    "conformance/src/cli.ts",
    "--base-url",
    url,
    ...keyOptions,
    "--quiet",
    "--junit",
    join(directory, "kit-junit.xml"),
    "--summary",
    join(directory, "kit-summary.md"),
    // Through Prism every check runs, so that Prism sees all the traffic it would judge.
    ...(throughPrism ? ["--through-prism-proxy"] : ["--bail"]),
  ];
  const child = spawnOwned(join(ROOT, "node_modules", ".bin", "tsx"), args, { cwd: kitDirectory, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const deadline = new Deadline(KIT_BASE_MS);
  let timedOut = false;
  for (;;) {
    const code = await Promise.race([closed, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 1000))]);
    if (code !== "waiting") return { code, output, timedOut };
    if (deadline.passed) {
      timedOut = true;
      output += `\n(the kit did not end ${deadline.describe()})`;
      await stopOwned(child);
      return { code: await closed, output, timedOut };
    }
  }
}

/** The failed checks a quiet kit run prints, `✗ id  title`. */
const failedChecks = (output: string) => [...output.matchAll(/^\s*✗ (\S+)/gm)].map((match) => match[1]!);

interface PrismProxy {
  child: ChildProcess;
  url: string;
  /** What Prism logged, standard output and error together. */
  log(): string;
}

/** Prism's validating proxy in front of `upstream`, logging what it finds rather than answering errors, so the kit's verdict stays its own. */
async function startPrism(upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnOwned(
    join(ROOT, "node_modules", ".bin", "prism"),
    [
      "proxy",
      join(kitDirectory, SANDBOX_BUNDLE_PATHS.full),
      upstream,
      "--validate-request=false",
      "--cors=false",
      "-p",
      String(port),
      "-v",
      "warn",
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  try {
    await waitUntilServing("Prism's validating proxy", `${url}/health`, { child, output: () => log });
  } catch (error) {
    await stopOwned(child);
    throw error;
  }
  return { child, url, log: () => log };
}

interface Baseline {
  prismViolations: string[];
}

async function runOne(mutant: Mutant | null, baseline: Baseline | null): Promise<MutantResult> {
  const name = mutant?.name ?? "unpatched";
  const started = performance.now();
  let kitOutput: string | undefined;
  const result = (outcome: Outcome, detail: string, prism?: MutantResult["prism"]): MutantResult => ({
    mutant: mutant ?? { name, description: "the tree as it is", patch: "" },
    outcome,
    detail,
    ...(kitOutput === undefined ? {} : { kitOutput }),
    ...(prism ? { prism } : {}),
    seconds: Math.round((performance.now() - started) / 1000),
  });
  let directory: string;
  try {
    directory = scratchCopy(name, mutant?.patch ?? null);
  } catch (error) {
    if (error instanceof CorpusError) return result("error", error.message);
    throw error;
  }
  try {
    let kit: KitRun;
    try {
      kit = await againstServer(directory, (url, keyOptions) => runKit(url, keyOptions, directory, false));
    } catch (error) {
      if (error instanceof NotServingError)
        return result("error", `the server does not start: ${error.message.split("\n").slice(0, 4).join(" / ")}`);
      throw error;
    }
    // Prism's pass: a server of its own, fresh as the kit's was, every check through the proxy.
    const prismVerdict = values.prism
      ? await againstServer(directory, async (url, keyOptions) => {
          const prism = await startPrism(url);
          try {
            await runKit(prism.url, keyOptions, directory, true);
          } finally {
            await stopOwned(prism.child);
          }
          const reported = prismViolations(prism.log());
          const violations = mutant ? reported.filter((line) => !baseline?.prismViolations.includes(line)) : reported;
          return { detected: violations.length > 0, violations };
        })
      : undefined;
    const failed = failedChecks(kit.output);
    kitOutput = kit.output.trim().split("\n").slice(-40).join("\n");
    const tail = lastOutput(kit.output).replace(/^; its last output:\n/, "");
    if (kit.timedOut) return result("error", `the kit did not end in time; ${tail.split("\n").slice(-3).join(" / ")}`, prismVerdict);
    if (kit.code === 0) return result("missed", "", prismVerdict);
    if (kit.code === 2) return result("refused", tail.split("\n").filter(Boolean).slice(-1)[0] ?? "", prismVerdict);
    if (kit.code === 1 && failed.length > 0) return result("detected", failed.join(", "), prismVerdict);
    return result(
      "error",
      `the kit ended with ${kit.code} without naming a failed check: ${tail.split("\n").slice(-6).join(" / ")}`,
      prismVerdict,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Starts the server of `directory`, runs `work` against its URL, and stops it whatever happens. */
async function againstServer<T>(directory: string, work: (url: string, keyOptions: string[]) => Promise<T>): Promise<T> {
  const { server, url, keyOptions } = await startServer(directory);
  try {
    return await work(url, keyOptions);
  } finally {
    await server.stop();
  }
}

/** Runs `work` over `items`, `limit` at a time, keeping the order of `items` in the results. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

const LABELS: Record<Outcome, string> = { detected: "detected", refused: "detected (preflight)", missed: "MISSED", error: "ERROR" };
const caught = (result: MutantResult) => result.outcome === "detected" || result.outcome === "refused";
const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${Math.round((100 * part) / whole)} %`);

function markdownReport(results: MutantResult[], seconds: number, chosenSize: number, corpusSize: number): string {
  const judged = results.filter((r) => r.outcome !== "error");
  const lines = [
    "# Conformance kit against the mutation corpus",
    "",
    `${new Date().toISOString()}: ${results.length === chosenSize ? "" : `so far ${results.length} of the ${chosenSize} chosen, `}${chosenSize} of ${corpusSize} mutants (test/conformance-kit/mutants/), ${Math.round(seconds)} s. Each mutant is the reference server with one fault, started with PARTNER_API_VALIDATE_RESPONSES=off; the kit ran against it with --bail (the first failed check)${values.prism ? "; then, on a fresh server, every check through Prism's validating proxy, which counts as detecting the mutant when it logs a violation it does not log on the unpatched tree" : ""}.`,
    "",
    `| Mutant | Fault | Kit | Detected by |${values.prism ? " Prism |" : ""} s |`,
    `| --- | --- | --- | --- |${values.prism ? " --- |" : ""} ---: |`,
    ...results.map(
      (r) =>
        `| ${r.mutant.name} | ${markdownCell(r.mutant.description)} | ${LABELS[r.outcome]} | ${markdownCell(r.detail)} |${values.prism ? ` ${r.prism ? (r.prism.detected ? `detected: ${markdownCell(r.prism.violations.slice(0, 2).join("; "))}` : "missed") : "-"} |` : ""} ${r.seconds} |`,
    ),
    "",
    `Kit: ${judged.filter(caught).length} of ${judged.length} detected (${percent(judged.filter(caught).length, judged.length)}).`,
  ];
  if (values.prism) {
    const prismJudged = judged.filter((r) => r.prism);
    const prismCaught = prismJudged.filter((r) => r.prism!.detected).length;
    lines.push(`Prism's validating proxy: ${prismCaught} of ${prismJudged.length} detected (${percent(prismCaught, prismJudged.length)}).`);
  }
  const errors = results.filter((r) => r.outcome === "error");
  if (errors.length) lines.push(`Errors of the corpus or the run (not counted): ${errors.map((r) => r.mutant.name).join(", ")}.`);
  return `${lines.join("\n")}\n`;
}

function printTable(results: MutantResult[]): void {
  const rows = results.map((r) => [
    r.mutant.name,
    r.mutant.description.length > 70 ? `${r.mutant.description.slice(0, 67)}...` : r.mutant.description,
    LABELS[r.outcome],
    r.detail.length > 90 ? `${r.detail.slice(0, 87)}...` : r.detail,
    ...(values.prism ? [r.prism ? (r.prism.detected ? "detected" : "missed") : "-"] : []),
  ]);
  const header = ["mutant", "fault", "kit", "detected by / why", ...(values.prism ? ["prism"] : [])];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((text, column) => text.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    );
}

const corpus = readCorpus(CORPUS);
if (corpus.length === 0) usage(`no mutants in ${relative(ROOT, CORPUS)}`);
let chosen = only ? corpus.filter((mutant) => only.test(mutant.name)) : corpus;
if (chosen.length === 0) usage(`--only ${values.only} matches no mutant of ${relative(ROOT, CORPUS)}`);
if (sampleSize !== null) chosen = sampleOf(chosen, sampleSize, dayNumber(new Date()));

const runStarted = performance.now();
/**
 * The kit as it is now, copied once: every mutant meets the same kit, even while the checkout's
 * changes (a check being written, a catalogue being edited).
 */
const kitDirectory = scratchCopy("kit", null);
try {
  console.log(
    `conformance:mutants: the unpatched tree first (the kit must pass on it)${values.prism ? ", through Prism's validating proxy" : ""}`,
  );
  const unpatched = await runOne(null, null);
  if (unpatched.outcome !== "missed") {
    console.error(
      `conformance:mutants: the kit does not pass on the unpatched tree (${LABELS[unpatched.outcome]}: ${unpatched.detail}); a kit that fails there would "detect" every mutant, so none is run`,
    );
    if (unpatched.kitOutput) console.error(`the kit's output ended:\n${unpatched.kitOutput}`);
    process.exitCode = 1;
  } else {
    const baseline: Baseline = { prismViolations: unpatched.prism?.violations ?? [] };
    if (baseline.prismViolations.length)
      console.log(
        `Prism reports ${baseline.prismViolations.length} violation(s) on the unpatched tree too; only others count as its detections`,
      );
    console.log(`conformance:mutants: ${chosen.length} of ${corpus.length} mutants, ${AT_ONCE} at once`);
    const report = resolve(ROOT, values.report);
    mkdirSync(dirname(report), { recursive: true });
    const finished: MutantResult[] = [];
    const results = await pool(chosen, AT_ONCE, async (mutant) => {
      const outcome = await runOne(mutant, baseline);
      console.log(
        `  ${mutant.name}: ${LABELS[outcome.outcome]}${outcome.detail ? ` (${outcome.detail.split("\n")[0]})` : ""}, ${outcome.seconds} s`,
      );
      // Written after each mutant: a long run stopped half-way still leaves what it found.
      finished.push(outcome);
      writeFileSync(report, markdownReport(finished, (performance.now() - runStarted) / 1000, chosen.length, corpus.length));
      return outcome;
    });
    const seconds = (performance.now() - runStarted) / 1000;
    console.log("");
    printTable(results);
    const judged = results.filter((r) => r.outcome !== "error");
    console.log(
      `\nkit: ${judged.filter(caught).length} of ${judged.length} mutants detected (${percent(judged.filter(caught).length, judged.length)})${results.length > judged.length ? `; ${results.length - judged.length} error(s) of the corpus or the run` : ""}`,
    );
    if (values.prism) {
      const prismCaught = judged.filter((r) => r.prism?.detected).length;
      console.log(`Prism's validating proxy: ${prismCaught} of ${judged.length} detected (${percent(prismCaught, judged.length)})`);
    }
    writeFileSync(report, markdownReport(results, seconds, chosen.length, corpus.length));
    console.log(`report: ${relative(ROOT, report)} (${Math.round(seconds)} s)`);
    process.exitCode = results.every(caught) ? 0 : 1;
  }
} catch (error) {
  if (!(error instanceof NotServingError)) throw error;
  console.error(`conformance:mutants: ${error.message}`);
  process.exitCode = 1;
}
