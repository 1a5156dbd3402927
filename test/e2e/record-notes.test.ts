/**
 * A record's comment and a record the partner locked, in the embedded interface, in a browser, in
 * English and German: the lock's mark read by its name, no edit or delete for the locked record, the
 * comment under its value and in the edit form, and the refusal a locked record's address gets.
 * Each page is checked with axe-core and photographed (test-output/e2e/embed-<language>-<page>-<width>.png).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { de } from "../../server/embed/i18n/messages-de.js";
import { en } from "../../server/embed/i18n/messages-en.js";
import { startEmbedTestServer, type EmbedTestServer } from "../support/embed-test-server.js";
import { checkPage } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";

let browser: Browser;
let s: EmbedTestServer;

beforeAll(async () => {
  [s, browser] = await Promise.all([startEmbedTestServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** The partner as the embedded interface names it: the test server's partners have no display name of their own. */
const PARTNER = "partner_a";
const LANGUAGES = {
  en: { locale: "en-US", t: en, comment: "Storefront, pointed by the shop builder" },
  de: { locale: "de-DE", t: de, comment: "Shop, vom Baukasten eingerichtet" },
} as const;

describe.each(["en", "de"] as const)("comments and locked records in %s", (language) => {
  const { t, locale, comment } = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  let domainPage: string;
  const ids = { locked: "", open: "" };
  const check = (name: string) => checkPage(page, name, `embed-${language}`);

  beforeAll(async () => {
    await s.reset();
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    const domain = (await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } })).data!;
    const create = async (body: Record<string, unknown>) =>
      (await s.api.POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domain.id } }, body: body as never })).data!.id;
    ids.locked = await create({
      type: "TXT",
      name: "_shop-verify",
      content: "shop-verify=4f2a9c",
      comment: "Domain verification",
      locked: true,
    });
    ids.open = await create({ type: "A", name: "@", content: "192.0.2.10", comment });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await page.goto(data!.login_url);
    domainPage = new URL(`/domains/${domain.id}`, page.url()).href;
    await page.goto(domainPage);
  });
  afterAll(() => context?.close());

  it("marks the locked record by a name that says who locked it, offers it no edit or delete, and shows each comment", async () => {
    const lockedRow = page.locator(`#record-${ids.locked}`);
    await expect(lockedRow.getByRole("img", { name: t.recordNotes.lockedBy(PARTNER) }).isVisible()).resolves.toBe(true);
    expect(await lockedRow.getByRole("link").count()).toBe(0);
    expect(await lockedRow.innerText()).toContain(t.recordNotes.managedBy(PARTNER));
    expect(await lockedRow.innerText()).toContain("Domain verification");
    const openRow = page.locator(`#record-${ids.open}`);
    expect(await openRow.getByRole("link", { name: `${t.dns.edit} ${t.dns.recordLabel("A", "@")}` }).count()).toBe(1);
    expect(await openRow.innerText()).toContain(comment);
    await check("records-locked-and-comments");
  });

  it("edits the comment of an unlocked record in its form", async () => {
    await page
      .locator(`#record-${ids.open}`)
      .getByRole("link", { name: `${t.dns.edit} ${t.dns.recordLabel("A", "@")}` })
      .click();
    const field = page.getByLabel(t.recordNotes.comment, { exact: true });
    expect(await field.inputValue()).toBe(comment);
    await check("record-edit-comment");
    await field.fill(`${comment} (2)`);
    await page.getByRole("button", { name: t.edit.save }).click();
    await page.getByRole("status").waitFor();
    expect(await page.locator(`#record-${ids.open}`).innerText()).toContain(`${comment} (2)`);
  });

  it("refuses a locked record's edit address, saying who locked it", async () => {
    const answer = await page.goto(`${domainPage}/dns/${ids.locked}/edit`);
    expect(answer?.status()).toBe(409);
    expect((await page.locator("main").innerText()).replace(/[\u00a0\u202f]/g, " ")).toContain(
      t.recordNotes.refused("TXT", "_shop-verify", PARTNER).replace(/[\u00a0\u202f]/g, " "),
    );
    await check("record-locked-refused");
  });
});
