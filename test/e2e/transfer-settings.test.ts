/**
 * A domain's transfer settings in the embedded interface, in a browser, in English and German: the
 * 60 days said with their date, the lock switch, the transfer code revealed on request, and another
 * registrar's request rejected. Each page is checked with axe-core and photographed
 * (test-output/e2e/embed-<language>-<page>-<width>.png).
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

const LANGUAGES = { en: { locale: "en-US", t: en }, de: { locale: "de-DE", t: de } } as const;
const DAY_S = 86_400;
/** Intl and French typography set no-break spaces; the sentences are compared with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe.each(["en", "de"] as const)("transfer settings in %s", (language) => {
  const { t, locale } = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  const ids = { older: "", newer: "" };
  let base = "";
  const check = (name: string) => checkPage(page, name, `embed-${language}`);
  const mainText = async () => plain(await page.locator("main").innerText());

  beforeAll(async () => {
    await s.reset();
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    const register = async (domain_name: string) =>
      (await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name } })).data!.id;
    ids.older = await register("adalovelace.com");
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 61 * DAY_S } });
    ids.newer = await register("babbage-engines.com");
    // The advance ended the first session; the user opens the interface now.
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await page.goto(data!.login_url);
    base = new URL("/", page.url()).href;
  });
  afterAll(() => context?.close());

  it("says from when the code of a new domain is available, and offers none", async () => {
    await page.goto(`${base}domains/${ids.newer}/transfer`);
    const text = await mainText();
    expect(text).toContain(plain(t.transferOut.title("babbage-engines.com")));
    expect(text).toContain(t.transferOut.codeNotYet("").split(" ").slice(0, 3).join(" "));
    expect(await page.getByRole("button", { name: t.transferOut.revealCode }).count()).toBe(0);
    await check("transfer-settings-waiting");
  });

  it("turns the lock off with its switch and reveals the code on request", async () => {
    await page.goto(`${base}domains/${ids.older}/transfer`);
    const lock = page.getByRole("switch", { name: t.transferOut.lock });
    expect(await lock.getAttribute("aria-checked")).toBe("true");
    await lock.click();
    await page.getByRole("status").waitFor();
    expect(plain(await page.getByRole("status").innerText())).toBe(plain(t.transferOut.lockOff("adalovelace.com")));
    expect(await page.getByRole("switch", { name: t.transferOut.lock }).getAttribute("aria-checked")).toBe("false");
    await page.getByRole("button", { name: t.transferOut.revealCode }).click();
    const code = page.getByRole("textbox", { name: t.transferOut.codeLabel, exact: true });
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}/auth_code", { params: { path: { domain_id: ids.older } } });
    expect(await code.inputValue()).toBe(data!.auth_code);
    await check("transfer-code-revealed");
  });

  it("shows another registrar's request and rejects it", async () => {
    const { data } = await s.api.GET("/api/v1/domains/{domain_id}/auth_code", { params: { path: { domain_id: ids.older } } });
    await s.api.POST("/api/v1/sandbox/domains/{domain_id}/transfer_out", {
      params: { path: { domain_id: ids.older } },
      body: { auth_code: data!.auth_code, gaining_registrar: "Example Registrar Inc." },
    });
    await page.goto(`${base}domains/${ids.older}/transfer`);
    expect(await mainText()).toContain(plain(t.transferOut.pendingTitle));
    await check("transfer-request");
    await page.getByRole("button", { name: t.transferOut.reject }).click();
    await page.getByRole("status").waitFor();
    expect(plain(await page.getByRole("status").innerText())).toBe(plain(t.transferOut.rejected("adalovelace.com")));
    const outbound = await s.api.GET("/api/v1/domains/{domain_id}/transfer_out", { params: { path: { domain_id: ids.older } } });
    expect(outbound.data).toMatchObject({ status: "rejected" });
  });
});
