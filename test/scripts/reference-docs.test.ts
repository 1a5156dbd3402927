/**
 * The HTML reference `npm start` builds (scripts/lib/reference-docs.ts): a page is built again when
 * its document's bytes change or the page is no longer the one built, never for a newer time alone
 * (a checkout, `npm run generate`).
 */
import { copyFileSync, appendFileSync, existsSync, mkdtempSync, readdirSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../scripts/lib/atomic-files.js";
import { RECORD_FILE } from "../../scripts/lib/build-records.js";
import { buildReferenceDocs, REFERENCE_BUILD_FILES } from "../../scripts/lib/reference-docs.js";

describe("buildReferenceDocs with onlyStale", () => {
  it("builds a page once, and again only when its document's bytes change or the page was replaced", () => {
    const work = mkdtempSync(join(tmpdir(), "reference-docs-"));
    const document = join(work, "partner-api.yml");
    copyFileSync("generated/openapi/partner-api.yml", document);
    const outDir = join(work, "docs");
    const build = () => buildReferenceDocs(outDir, { onlyStale: true, documents: [document] });

    expect(build()).toBe(1);
    expect(readdirSync(outDir).sort()).toEqual([RECORD_FILE, "partner-api.html"]);
    expect(build()).toBe(0);
    // Rewritten with the same bytes, as `npm run generate` and a checkout do.
    const later = new Date(Date.now() + 60_000);
    utimesSync(document, later, later);
    expect(build()).toBe(0);
    appendFileSync(document, "# changed\n");
    expect(build()).toBe(1);
    // Another build's page, or anything else, in its place.
    writeFileAtomic(join(outDir, "partner-api.html"), "<!doctype html><title>not this build's</title>");
    expect(build()).toBe(1);
    expect(build()).toBe(0);
  });

  it("counts every file a page is made from besides its document, and each exists", () => {
    expect(REFERENCE_BUILD_FILES).toEqual(
      expect.arrayContaining(["redocly.yaml", "node_modules/@redocly/cli/package.json", "scripts/lib/redoc-logo-patch.ts"]),
    );
    expect(REFERENCE_BUILD_FILES.filter((file) => !existsSync(file))).toEqual([]);
  });
});
