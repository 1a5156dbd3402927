import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../../scripts/lib/bundle-paths.js";
import { loadDocument, operationsOf } from "../support/openapi-document.js";
import { launchChromium } from "./support/browser.js";

/** What a page opened offline asked for beyond its own file (each refused), and the errors it logged. */
const offlineLogs = new WeakMap<Page, { refused: string[]; errors: string[] }>();

/** Opens a built page with every request that is not for a local file refused: no CDN, no network. */
async function openOffline(browser: Browser, file: string): Promise<Page> {
  const page = await browser.newPage();
  const log = { refused: [] as string[], errors: [] as string[] };
  offlineLogs.set(page, log);
  page.on("console", (message) => {
    if (message.type() === "error") log.errors.push(message.text());
  });
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    log.refused.push(url);
    return route.abort();
  });
  await page.goto(`file://${file}`, { waitUntil: "load" });
  return page;
}

/** Redoc's telemetry would send what it collected after OpenTelemetry's batch delay (5 s): a page is watched that long and a little more. */
const TELEMETRY_BATCH_MS = 6_000;

/**
 * Redoc lists a tag's operations in its side menu once the tag is opened (opening one may close
 * another), each linked as `#/<tag>/<operationId in lower case>`.
 */
async function operationLinksShown(page: Page, idsByTag: ReadonlyMap<string, string[]>): Promise<Set<string>> {
  const shown = new Set<string>();
  for (const [tag, ids] of idsByTag) {
    await page.getByRole("link", { name: tag, exact: true }).first().click();
    // Redoc opens the tag's menu after the click returns: wait until its operations are linked (or
    // give up after a while and let the assertion name the ones missing).
    await page
      .waitForFunction((wanted) => wanted.every((id) => document.querySelector(`a[href$='/${id}']`) !== null), ids, {
        timeout: scaled(5_000),
      })
      .catch(() => undefined);
    const links = await page.$$eval("a[href^='#/']", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    for (const href of links) if (/^#\/[^/#]+\/[^/#]+$/.test(href)) shown.add(href.split("/").at(-1)!);
  }
  return shown;
}

describe("npm run build:docs (the HTML reference docs)", () => {
  const outDir = mkdtempSync(join(tmpdir(), "partner-api-docs-"));
  let browser: Browser;

  beforeAll(async () => {
    execFileSync("node_modules/.bin/tsx", ["scripts/build-docs.ts", outDir], { stdio: "pipe" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(outDir, { recursive: true });
  });

  it("loads nothing from another origin: no telemetry, no logo from Redocly's CDN, and logs no error", async () => {
    const page = await openOffline(browser, join(outDir, "partner-api.html"));
    try {
      // Redoc shows its credit's image once it runs (scripts/lib/redoc-logo-patch.ts keeps it in the page).
      const logo = page.locator("img[alt='redocly logo']").first();
      await logo.waitFor({ timeout: scaled(10_000) });
      await expect
        .poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: scaled(5_000) })
        .toBe(true);
      const { tags } = operationsOf(loadDocument("R", "production"))[0]!.operation as { tags: string[] };
      await page.getByRole("link", { name: tags[0]!, exact: true }).first().click();
      await page.waitForTimeout(TELEMETRY_BATCH_MS);
      expect(offlineLogs.get(page)).toEqual({ refused: [], errors: [] });
    } finally {
      await page.close();
    }
  });

  for (const environment of ["production", "sandbox"] as const) {
    for (const [kind, bundle] of Object.entries(environment === "sandbox" ? SANDBOX_BUNDLE_PATHS : BUNDLE_PATHS)) {
      it(`shows every operation and webhook of ${basename(bundle)} with the network off`, async () => {
        const document = loadDocument(kind as keyof typeof BUNDLE_PATHS, environment);
        const operations = operationsOf(document).map(
          ({ operation }) => operation as { operationId: string; tags: string[]; summary: string },
        );
        const page = await openOffline(browser, join(outDir, `${basename(bundle, ".yml")}.html`));
        try {
          const idsByTag = new Map<string, string[]>();
          for (const { tags, operationId } of operations)
            idsByTag.set(tags[0]!, [...(idsByTag.get(tags[0]!) ?? []), operationId.toLowerCase()]);
          const shown = await operationLinksShown(page, idsByTag);
          // The menu also links the headings of tag descriptions, so the operations are a part of what it shows.
          expect(operations.map((operation) => operation.operationId.toLowerCase()).filter((id) => !shown.has(id))).toEqual([]);
          const last = operations.at(-1)!;
          await page.locator(`a[href$='/${last.operationId.toLowerCase()}']`).first().click();
          await expect.poll(() => page.locator("main").innerText()).toContain(last.summary);
        } finally {
          await page.close();
        }
      });
    }
  }
});
