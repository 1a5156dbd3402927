/** The run's reports: JUnit XML for CI systems, a Markdown summary for people, and the catalogue's coverage. */
import type { Rule, RuleFamily } from "./catalogue.js";
import type { CheckResult, Outcome } from "./session.js";

export interface RuleStatus {
  rule: Rule;
  outcome: Outcome | "not-checkable";
}

/** A rule passes when every check of it passed, fails when one failed, else does not apply. */
export function ruleStatuses(families: RuleFamily[], results: CheckResult[]): RuleStatus[] {
  const byId = new Map(results.map((result) => [result.id, result]));
  return families.flatMap((family) =>
    family.rules.map((rule): RuleStatus => {
      if (rule.checks.length === 0) return { rule, outcome: "not-checkable" };
      const outcomes = rule.checks.map((id) => byId.get(id)?.outcome);
      if (outcomes.includes("failed")) return { rule, outcome: "failed" };
      if (outcomes.includes("passed")) return { rule, outcome: "passed" };
      return { rule, outcome: "not-applicable" };
    }),
  );
}

export function coverageLine(statuses: RuleStatus[]): string {
  const count = (outcome: RuleStatus["outcome"]) => statuses.filter((status) => status.outcome === outcome).length;
  const checkable = statuses.length - count("not-checkable");
  return (
    `rules: ${count("passed")} passed, ${count("failed")} failed, ${count("not-applicable")} not applicable to this target; ` +
    `catalogue coverage ${checkable}/${statuses.length} rules have checks` +
    (count("not-checkable") ? ` (${count("not-checkable")} cannot be checked over HTTP, see the catalogue)` : "")
  );
}

/** XML 1.0 admits no control character but tab and the line ends. */
const allowedInXml = (c: string) => c.charCodeAt(0) >= 0x20 || c === "\t" || c === "\n" || c === "\r";

const escapeXml = (text: string) =>
  [...text]
    .filter(allowedInXml)
    .join("")
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

export function junitXml(results: CheckResult[], suiteName: string): string {
  const failures = results.filter((result) => result.outcome === "failed").length;
  const skipped = results.filter((result) => result.outcome === "not-applicable").length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = results.reduce((sum, result) => sum + result.milliseconds, 0);
  const cases = results.map((result) => {
    const open = `    <testcase classname="${escapeXml(result.id.split(".")[0]!)}" name="${escapeXml(`${result.id}: ${result.title}`)}" time="${seconds(result.milliseconds)}"`;
    if (result.outcome === "passed") return `${open}/>`;
    if (result.outcome === "not-applicable")
      return `${open}>\n      <skipped message="${escapeXml(result.message ?? "")}"/>\n    </testcase>`;
    const first = (result.message ?? "").split("\n")[0]!;
    return `${open}>\n      <failure message="${escapeXml(first)}">${escapeXml(result.message ?? "")}</failure>\n    </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${escapeXml(suiteName)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(suiteName)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(total)}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

/** Text fit for one cell of a Markdown table. */
export const markdownCell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function markdownSummary(target: string, results: CheckResult[], statuses: RuleStatus[]): string {
  const mark: Record<RuleStatus["outcome"], string> = {
    passed: "passed",
    failed: "**failed**",
    "not-applicable": "not applicable",
    "not-checkable": "not checkable over HTTP",
  };
  const failed = results.filter((result) => result.outcome === "failed");
  const lines = [
    `# Conformance of ${target}`,
    "",
    coverageLine(statuses),
    "",
    `Checks: ${results.filter((r) => r.outcome === "passed").length} passed, ${failed.length} failed, ${results.filter((r) => r.outcome === "not-applicable").length} not applicable.`,
    "",
  ];
  if (failed.length) {
    lines.push("## Failed checks", "");
    for (const result of failed)
      lines.push(`- \`${result.id}\`: ${markdownCell((result.message ?? "").split("\n").slice(0, 3).join(" / "))}`);
    lines.push("");
  }
  lines.push("## Rules", "", "| rule | outcome | checks | statement |", "|---|---|---|---|");
  for (const { rule, outcome } of statuses)
    lines.push(
      `| ${rule.id} | ${mark[outcome]} | ${rule.checks.map((id) => `\`${id}\``).join(", ") || markdownCell(rule.black_box ?? "")} | ${markdownCell(rule.rule)} |`,
    );
  return `${lines.join("\n")}\n`;
}
