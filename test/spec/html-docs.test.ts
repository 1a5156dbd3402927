import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../../scripts/lib/bundle-paths.js";
import { REDOC_LOGO_ADDRESSES } from "../../scripts/lib/redoc-logo-patch.js";

/** Every page, by the name of its document. */
const PAGES = [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)].map((path) => basename(path, ".yml"));

/** A JSON value the page's inline script assigns to `name` (`const name = {...};`). */
function inlineValue(page: string, name: string): unknown {
  const start = page.indexOf(`const ${name} = `);
  expect(start, name).toBeGreaterThan(-1);
  const from = start + `const ${name} = `.length;
  return JSON.parse(page.slice(from, page.indexOf(";\n", from)));
}

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

  it("loads nothing from another origin: no telemetry, no logo from Redocly's CDN, no external script, style or image", () => {
    for (const name of PAGES) {
      const page = html(name);
      expect(inlineValue(page, "__redoc_options"), name).toMatchObject({ disableTelemetry: true });
      for (const address of REDOC_LOGO_ADDRESSES) expect(page, name).not.toContain(address);
      // The credit stays, its image inside the page (scripts/lib/redoc-logo-patch.ts).
      expect(page, name).toMatch(/alt:`redocly logo`[^}]*src:[^}]*`data:image\/svg\+xml,/);
      // Links (<a href>) are followed only when clicked; these attributes load as the page opens.
      const markup = page.replace(/<script[\s\S]*?<\/script>/g, "");
      expect(
        markup.match(
          /<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|srcset|data)=["']?(?:https?:)?\/\//gi,
        ),
        name,
      ).toBeNull();
      expect(markup.match(/url\(["']?(?:https?:)?\/\//gi), name).toBeNull();
    }
  });

  it("shows every server's description as written: no Markdown backticks, which the Servers panel shows literally", () => {
    for (const name of PAGES) {
      const { servers } = inlineValue(html(name), "__redoc_definition") as {
        servers: { description?: string; variables?: Record<string, { description?: string }> }[];
      };
      expect(servers.length, name).toBeGreaterThan(0);
      const descriptions = servers.flatMap((server) => [
        server.description ?? "",
        ...Object.values(server.variables ?? {}).map((variable) => variable.description ?? ""),
      ]);
      expect(
        descriptions.filter((description) => description.includes("`")),
        name,
      ).toEqual([]);
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
