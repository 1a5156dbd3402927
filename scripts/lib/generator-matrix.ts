/** The result table of `npm run check:generators` and its arguments: pure, so test/scripts/check-generators.test.ts reads it. */

export const MATRIX_STEPS = ["generate", "compile", "scenario"] as const;
export type MatrixStep = (typeof MATRIX_STEPS)[number];

/** One step of one generator: passed or failed, and its own wall time; absent when an earlier step failed. */
export interface StepResult {
  passed: boolean;
  seconds: number;
}

export interface MatrixRow {
  generator: string;
  steps: Partial<Record<MatrixStep, StepResult>>;
}

const cell = (result: StepResult | undefined) => (result ? `${result.passed ? "pass" : "FAIL"} ${result.seconds.toFixed(1)} s` : "skipped");

/** A Markdown table, generator by step, as CI logs and a pull request show it. */
export function matrixTable(rows: readonly MatrixRow[]): string {
  const header = ["generator", ...MATRIX_STEPS];
  const body = rows.map((row) => [row.generator, ...MATRIX_STEPS.map((step) => cell(row.steps[step]))]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((text, column) => text.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/** Every step of every row ran and passed. */
export const matrixPassed = (rows: readonly MatrixRow[]): boolean =>
  rows.length > 0 && rows.every((row) => MATRIX_STEPS.every((step) => row.steps[step]?.passed === true));

export interface MatrixArguments {
  /** The generators to run, by package name; all when `--only` is not given. */
  generators: string[];
  /** Keep the scratch directory (its path is printed) to read what a generator wrote. */
  keep: boolean;
}

/** `[--only name[,name...]] [--keep]`; an unknown argument or generator name is refused with the known ones. */
export function parseMatrixArguments(args: readonly string[], known: readonly string[]): MatrixArguments {
  const parsed: MatrixArguments = { generators: [...known], keep: false };
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    if (argument === "--keep") parsed.keep = true;
    else if (argument === "--only" || argument.startsWith("--only=")) {
      const value = argument === "--only" ? args[++index] : argument.slice("--only=".length);
      const names = (value ?? "").split(",").filter(Boolean);
      if (names.length === 0) throw new Error("--only needs generator names, separated by commas");
      const unknown = names.filter((name) => !known.includes(name));
      if (unknown.length > 0) throw new Error(`unknown generator ${unknown.join(", ")}; known: ${known.join(", ")}`);
      parsed.generators = names;
    } else throw new Error(`unknown argument ${argument}; usage: check:generators [--only name[,name...]] [--keep]`);
  }
  return parsed;
}
