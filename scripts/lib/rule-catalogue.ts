/**
 * The rule catalogue (spec/rules/*.yml) rendered for readers: generated/rules.md, which the docs
 * link, and generated/rules.json, which the developer portal renders as its Rules page.
 */
import { loadCatalogue, type RuleFamily } from "../../conformance/src/catalogue.js";
import { markdownCell } from "../../conformance/src/reports.js";

export const RULES_SOURCE = "spec/rules";

export function readRuleCatalogue(): RuleFamily[] {
  return loadCatalogue(RULES_SOURCE);
}

export function renderRulesMarkdown(families: RuleFamily[]): string {
  const rules = families.flatMap((family) => family.rules);
  const unverifiable = rules.filter((rule) => rule.checks.length === 0);
  const lines = [
    "# The rule catalogue",
    "",
    `Every rule of the service description and of our spec's additions, with the conformance kit's checks that prove it over HTTP: ${rules.length} rules in ${families.length} families, ${rules.length - unverifiable.length} checked, ${unverifiable.length} that no black-box check can prove (each says why). The kit prints its coverage of this catalogue on every run and refuses to run when a rule has neither a check nor a reason.`,
    "",
  ];
  for (const family of families) {
    lines.push(`## ${family.title}`, "", "| rule | statement | source | checked by |", "|---|---|---|---|");
    for (const rule of family.rules)
      lines.push(
        `| ${rule.id} | ${markdownCell(rule.rule)} | ${markdownCell(rule.source)} | ${rule.checks.length ? rule.checks.map((id) => `\`${id}\``).join(", ") : `not over HTTP: ${markdownCell(rule.black_box ?? "")}`} |`,
      );
    lines.push("");
  }
  return lines.join("\n");
}

/** JSON has no comments: the notice is a member of its own, first. */
export const renderRulesJson = (families: RuleFamily[], notice: string) =>
  `${JSON.stringify({ "x-generated": notice, families }, null, 2)}\n`;
