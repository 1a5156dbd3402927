/** Runs the kit's checks against a target, printing a line a check, and returns the reports. */
import { catalogueProblems, loadCatalogue } from "./catalogue.js";
import type { Check } from "./check.js";
import { ALL_CHECKS } from "./checks/index.js";
import { preflight } from "./preflight.js";
import { coverageLine, junitXml, markdownSummary, ruleStatuses } from "./reports.js";
import { KitSession, type CheckResult } from "./session.js";
import type { Target } from "./target.js";

export interface KitRunOptions {
  target: Target;
  /** Runs only the checks whose id matches. */
  only?: RegExp;
  /** Stops at the first failed check (enough to tell a broken implementation). */
  bail?: boolean;
  /** Prints failures and the totals only. */
  quiet?: boolean;
  checks?: readonly Check[];
  log?: (line: string) => void;
}

export interface KitReport {
  passed: boolean;
  results: CheckResult[];
  junit: string;
  markdown: string;
}

/** The kit's own rule catalogue and checks disagree: a kit that cannot say what it covers does not run. */
export class CatalogueError extends Error {}

const SYMBOLS = { passed: "✓", failed: "✗", "not-applicable": "-" } as const;

/**
 * The checks that wait for webhooks at the kit's receiver first: every write of the other checks is
 * an event for the endpoints registered by then, and deliveries to the placeholder addresses the
 * kit registers (never answered) can queue ahead of the receiver's on a target that sends a
 * partner's deliveries in order. Destructive checks last (a sandbox reset would take the others'
 * data), and of those the limits family's at the very end: they spend a bucket, and a check after
 * them would wait out its window.
 */
export const runOrder = (checks: readonly Check[]) => {
  const waitsForWebhooks = (check: Check) => check.needs?.includes("receiver") ?? false;
  const spendsBuckets = (check: Check) => check.id.startsWith("limits.");
  const kept = checks.filter((check) => !check.destructive);
  const destructive = checks.filter((check) => check.destructive);
  return [
    ...kept.filter(waitsForWebhooks),
    ...kept.filter((check) => !waitsForWebhooks(check)),
    ...destructive.filter((check) => !spendsBuckets(check)),
    ...destructive.filter(spendsBuckets),
  ];
};

export async function runKit(options: KitRunOptions): Promise<KitReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const checks = options.checks ?? ALL_CHECKS;
  let catalogue: ReturnType<typeof loadCatalogue>;
  try {
    catalogue = loadCatalogue();
  } catch (error) {
    throw new CatalogueError(`the kit's rule catalogue cannot be read: ${(error as Error).message.split("\n")[0]}`);
  }
  const problems = catalogueProblems(catalogue, [...checks]);
  if (problems.length) throw new CatalogueError(`the kit's rule catalogue is inconsistent:\n${problems.join("\n")}`);
  await preflight(options.target);
  const session = new KitSession(options.target, {
    onPause: (pause) => log(`  … waiting ${(pause.milliseconds / 1000).toFixed(1)} s before ${pause.operationId}: ${pause.reason}`),
  });
  log(
    `conformance of ${options.target.baseUrl} (${options.target.environment}, ${options.target.kind === "full" ? "both variants" : `Variant ${options.target.kind}`}${options.target.stateless ? ", stateless" : ""}), run ${session.run}`,
  );
  const results: CheckResult[] = [];
  try {
    for (const check of runOrder(checks)) {
      if (options.only && !options.only.test(check.id)) continue;
      const result = await session.runCheck(check);
      results.push(result);
      if (result.outcome === "failed") {
        log(`  ${SYMBOLS.failed} ${check.id}  ${check.title}`);
        for (const line of (result.message ?? "").split("\n").slice(0, 20)) log(`      ${line}`);
      } else if (!options.quiet) {
        const why = result.outcome === "not-applicable" ? `  (not applicable: ${result.message})` : "";
        log(`  ${SYMBOLS[result.outcome]} ${check.id}  ${check.title}${why}`);
      }
      if (options.bail && result.outcome === "failed") break;
    }
  } finally {
    await session.close();
  }
  const statuses = ruleStatuses(catalogue, results);
  const failed = results.filter((result) => result.outcome === "failed").length;
  log("");
  log(
    `checks: ${results.filter((r) => r.outcome === "passed").length} passed, ${failed} failed, ${results.filter((r) => r.outcome === "not-applicable").length} not applicable`,
  );
  log(coverageLine(statuses));
  const requests = [...session.api.requests].map(([key, count]) => `${count} with ${key}`).join(", ");
  log(`requests: ${requests || "none"} (besides the embed host's pages and the preflight)`);
  log(session.api.pacer.summary());
  return {
    passed: failed === 0,
    results,
    junit: junitXml(results, `partner-api conformance of ${options.target.baseUrl}`),
    markdown: markdownSummary(options.target.baseUrl, results, statuses),
  };
}
