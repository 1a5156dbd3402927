/**
 * The rule catalogue: every rule of the service description and of our spec's additions, with an
 * identifier, one line, and the checks that prove it (spec/rules/*.yml, rendered into generated/rules.md
 * by `npm run generate`). A rule no check can prove over HTTP says why instead (`black_box`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { Check } from "./check.js";

export interface Rule {
  id: string;
  rule: string;
  /** Where it is stated: the description's section, or "addition" for our spec's own. */
  source: string;
  checks: string[];
  /** Why no check over HTTP can prove it; set only when `checks` is empty. */
  black_box?: string;
  family: string;
}

export interface RuleFamily {
  family: string;
  title: string;
  rules: Rule[];
}

function rulesFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, "..", "rules"), join(here, "..", "..", "spec", "rules")];
  const found = candidates.find((folder) => existsSync(folder));
  if (!found) throw new Error(`the rule catalogue is not beside the kit (looked in ${candidates.join(", ")})`);
  return found;
}

export function loadCatalogue(folder = rulesFolder()): RuleFamily[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith(".yml"))
    .sort()
    .map((file) => {
      const family = parse(readFileSync(join(folder, file), "utf8")) as Omit<RuleFamily, "rules"> & { rules: Omit<Rule, "family">[] };
      return { ...family, rules: family.rules.map((rule) => ({ ...rule, checks: rule.checks ?? [], family: family.family })) };
    });
}

/** Every way the catalogue and the checks disagree: a rule without a check or a reason, a check named but missing, a check proving no rule, an id twice. */
export function catalogueProblems(families: RuleFamily[], checks: Check[]): string[] {
  const problems: string[] = [];
  const checkIds = new Set(checks.map((check) => check.id));
  const named = new Set<string>();
  const ruleIds = new Set<string>();
  for (const rule of families.flatMap((family) => family.rules)) {
    if (ruleIds.has(rule.id)) problems.push(`rule ${rule.id} is in the catalogue twice`);
    ruleIds.add(rule.id);
    if (rule.checks.length === 0 && !rule.black_box) problems.push(`rule ${rule.id} has no check (and says no reason it cannot have one)`);
    if (rule.checks.length > 0 && rule.black_box) problems.push(`rule ${rule.id} has checks and says it cannot be checked`);
    for (const id of rule.checks) {
      named.add(id);
      if (!checkIds.has(id)) problems.push(`rule ${rule.id} names check ${id}, which the kit does not have`);
    }
  }
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) problems.push(`check ${check.id} is defined twice`);
    seen.add(check.id);
    if (!named.has(check.id)) problems.push(`check ${check.id} proves no rule of the catalogue`);
  }
  return problems;
}
