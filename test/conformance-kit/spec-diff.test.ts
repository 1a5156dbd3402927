/** Breaking-change detection: additive changes pass, removals and new requirements fail. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { parse, stringify } from "yaml";
import { BUNDLE_PATHS } from "../../generated/deployment.js";
import { diffDocuments } from "../../scripts/lib/spec-diff.js";

const dir = mkdtempSync(join(tmpdir(), "spec-diff-test-"));
const base = join(dir, "base.yml");
writeFileSync(base, readFileSync(BUNDLE_PATHS.R, "utf8"));

function revised(change: (document: any) => void): string {
  const document = parse(readFileSync(base, "utf8"));
  change(document);
  const path = join(dir, `revision-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(path, stringify(document));
  return path;
}

describe("spec:diff", () => {
  it("passes an additive change: a new optional response field", () => {
    const path = revised((d) => {
      d.components.schemas.Tld.properties.note = { type: "string" };
    });
    expect(diffDocuments(base, path).breaking).toBe(false);
  });

  it.each([
    ["a removed operation", (d: any) => delete d.paths["/api/v1/domains/tlds"]],
    [
      "a new required request field",
      (d: any) => {
        d.components.schemas.DomainRenew.required.push("reason");
        d.components.schemas.DomainRenew.properties.reason = { type: "string" };
      },
    ],
    ["a removed response field", (d: any) => delete d.components.schemas.Tld.properties.currency],
  ])("fails on %s", (_name, change) => {
    const result = diffDocuments(base, revised(change));
    expect(result.breaking, result.report).toBe(true);
  });

  it("passes an unchanged document without running Redocly: no report", () => {
    const copy = join(dir, "unchanged.yml");
    writeFileSync(copy, readFileSync(base, "utf8"));
    expect(diffDocuments(base, copy)).toEqual({ breaking: false, report: "" });
  });

  it(
    "npm run spec:diff against this commit finds nothing breaking",
    () => {
      const output = execFileSync("node_modules/.bin/tsx", ["scripts/spec-diff.ts", "HEAD"], { encoding: "utf8" });
      expect(output).toContain("generated/openapi/partner-api.yml: compatible");
    },
    scaled(60_000),
  );
});
