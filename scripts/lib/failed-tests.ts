/**
 * The failed tests of a vitest run, read from its JUnit report, for the last lines a run prints:
 * a CI log is often read from its end only, and vitest names the failures far above it.
 */
import { existsSync, readFileSync } from "node:fs";

/** vitest's reporters for a step: its usual output, and a JUnit report to read the failures from. */
export const vitestReporters = (junitFile: string) => ["--reporter=default", "--reporter=junit", `--outputFile.junit=${junitFile}`];

const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos|#(\d+));/g, (_m, name: string, code?: string) =>
    code ? String.fromCharCode(Number(code)) : ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" } as Record<string, string>)[name]!,
  );

/** One line a failed test case: `file > test: first line of the failure`. */
export function failedTests(junitFile: string): string[] {
  if (!existsSync(junitFile)) return [];
  const xml = readFileSync(junitFile, "utf8");
  const failed: string[] = [];
  for (const match of xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*?(?<!\/)>([\s\S]*?)<\/testcase>/g)) {
    const failure = /<(failure|error) message="([^"]*)"/.exec(match[3]!);
    if (failure)
      failed.push(`${unescapeXml(match[1]!)} > ${unescapeXml(match[2]!)}: ${unescapeXml(failure[2]!).split("\n")[0]!.slice(0, 300)}`);
  }
  return failed;
}
