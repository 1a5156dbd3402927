/**
 * The mutation corpus of the conformance kit (test/conformance-kit/mutants/*.patch): reading it,
 * choosing the sample CI runs, and reading Prism's log, for scripts/conformance-mutants.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

export interface Mutant {
  /** The patch's file name without `.patch`. */
  name: string;
  /** Its first line, `# what is wrong`, without the `#`. */
  description: string;
  /** The patch's path. */
  patch: string;
}

export function readCorpus(folder: string): Mutant[] {
  let files: string[];
  try {
    files = readdirSync(folder).filter((file) => file.endsWith(".patch"));
  } catch {
    files = [];
  }
  return files.sort().map((file) => {
    const patch = join(folder, file);
    const first = readFileSync(patch, "utf8").split("\n", 1)[0] ?? "";
    return { name: basename(file, ".patch"), description: first.startsWith("#") ? first.replace(/^#\s*/, "") : "", patch };
  });
}

/**
 * `size` consecutive mutants from the day's position in the corpus (day number modulo its size),
 * wrapping round: each day's CI runs the next ones, and every mutant comes round in turn.
 */
export function sampleOf<T>(corpus: readonly T[], size: number, day: number): T[] {
  if (size >= corpus.length) return [...corpus];
  const start = day % corpus.length;
  return Array.from({ length: size }, (_, index) => corpus[(start + index) % corpus.length]!);
}

/** Days since the Unix epoch, in UTC: the same sample all day wherever CI runs. */
export const dayNumber = (now: Date): number => Math.floor(now.getTime() / 86_400_000);

/**
 * The violations Prism's proxy logged, each once, without what differs from one run to the next
 * (colours, times, numbers, the ids and names a run makes up), so that those it also reports on the
 * unpatched tree can be set apart from a mutant's.
 */
export function prismViolations(log: string): string[] {
  const lines = log
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of Prism's colours.
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((line) => /violation/i.test(line))
    .map((line) =>
      line
        .replace(/^.*?(?=violation)/i, "")
        .replace(/\b[a-z]+_[0-9A-Za-z]{6,}\b/g, "<id>")
        .replace(/\d+/g, "<n>")
        .trim(),
    );
  return [...new Set(lines)].sort();
}
