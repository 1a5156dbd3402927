import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("npm run build:docs", () => {
  const outDir = mkdtempSync(join(tmpdir(), "partner-api-docs-"));
  execFileSync("node_modules/.bin/tsx", ["scripts/build-docs.ts", outDir], { stdio: "pipe" });
  const html = (name: string) => readFileSync(join(outDir, `${name}.html`), "utf8");

  it("renders each published document's operations, decisions and webhooks", () => {
    for (const name of ["partner-api", "partner-api.d", "partner-api.full"]) {
      const page = html(name);
      expect(page).toContain("Partner Domain and DNS Service API");
      expect(page).toContain('"operationId":"createUserSession"');
      expect(page).toContain("Variants and deployments");
      expect(page).toContain("rate_limit_exceeded");
      expect(page).toContain("Decision");
      expect(page).toContain("Partner-Signature");
    }
  });

  it("keeps each variant's operations to its own document", () => {
    const operation = (id: string) => `"operationId":"${id}"`;
    expect(html("partner-api")).toContain(operation("createDnsRecord"));
    expect(html("partner-api")).not.toContain(operation("bulkCreateDomainDnsRecords"));
    expect(html("partner-api.d")).toContain(operation("bulkCreateDomainDnsRecords"));
    expect(html("partner-api.d")).not.toContain(operation("createDnsRecord"));
  });
});
