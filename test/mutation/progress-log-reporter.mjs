/**
 * A StrykerJS reporter that appends each mutant's result as it is known, one JSON line each, to
 * `<report>.progress.jsonl` beside the run's reports: a run stopped before its end (a long run on a
 * shared machine) still tells which mutants the kit caught and which it let through.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { commonTokens, declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";

class ProgressLogReporter {
  static inject = [commonTokens.options];

  constructor(options) {
    this.file = String(options.jsonReporter?.fileName ?? "reports/mutation/mutation.json").replace(/\.json$/, ".progress.jsonl");
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, "");
  }

  onMutantTested(result) {
    const { id, fileName, mutatorName, replacement, location, status, statusReason, killedBy, coveredBy } = result;
    const line = { id, fileName, mutatorName, replacement, line: location.start.line, column: location.start.column, status };
    if (statusReason) line.statusReason = statusReason.slice(0, 300);
    if (killedBy) line.killedBy = killedBy;
    if (coveredBy) line.coveredBy = coveredBy.length;
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, "progress-log", ProgressLogReporter)];
