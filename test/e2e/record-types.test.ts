/**
 * The record types for websites in the embedded interface, in a browser, in English and German: the
 * type choice gives each type's help at the value, a CAA and an HTTPS record are added and listed as
 * stored; each page is checked with axe-core and photographed (test-output/e2e/embed-<language>-<page>-<width>.png).
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

const LANGUAGES = {
  en: { locale: "en-US", t: en, type: "Type", name: "Name", value: "Value", addRecord: "Add record" },
  de: { locale: "de-DE", t: de, type: "Typ", name: "Name", value: "Wert", addRecord: "Eintrag hinzufügen" },
} as const;

describe.each(["en", "de"] as const)("the record types for websites in %s", (language) => {
  const words = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  const check = (name: string) => checkPage(page, name, `embed-${language}`);

  beforeAll(async () => {
    await s.reset();
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale: words.locale } });
    const domain = await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await page.goto(data!.login_url);
    await page.goto(new URL(`/domains/${domain.data!.id}`, page.url()).href);
  });
  afterAll(() => context?.close());

  const add = async (type: string, name: string, content: string) => {
    await page.getByLabel(words.type, { exact: true }).selectOption(type);
    await page.getByLabel(words.name, { exact: true }).fill(name);
    await page.getByLabel(words.value, { exact: true }).fill(content);
    await page.getByRole("button", { name: words.addRecord }).click();
    await page.getByRole("status").waitFor();
  };

  it("gives the chosen type's help at the value, and adds a CAA record as stored", async () => {
    await page.getByLabel(words.type, { exact: true }).selectOption("CAA");
    expect(await page.locator("[data-field=content] .hint").innerText()).toBe(words.t.dns.typeHints.CAA);
    expect(await page.locator("#add-priority").isVisible()).toBe(false);
    await check("record-type-caa");
    await add("CAA", "@", "0 issue letsencrypt.org");
    expect(await page.getByRole("table").locator("tbody").innerText()).toContain('0 issue "letsencrypt.org"');
  });

  it("adds an HTTPS record, its parameters in their order, and says a wrong one in words", async () => {
    await page.getByLabel(words.type, { exact: true }).selectOption("HTTPS");
    expect(await page.locator("[data-field=content] .hint").innerText()).toBe(words.t.dns.typeHints.HTTPS);
    await add("HTTPS", "@", "1 . port=443 alpn=h2,h3");
    const rows = page.getByRole("table").locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await page.getByRole("table").locator("tbody").innerText()).toContain("1 . alpn=h2,h3 port=443");
    await check("records-website-types");
    await page.getByLabel(words.type, { exact: true }).selectOption("HTTPS");
    await page.getByLabel(words.name, { exact: true }).fill("www");
    await page.getByLabel(words.value, { exact: true }).fill("1 . alpn=h2 alpn=h3");
    await page.getByRole("button", { name: words.addRecord }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.locator("#add-content-error").innerText()).toContain(words.t.errors.content.HTTPS);
    await check("record-error-https");
  });
});
