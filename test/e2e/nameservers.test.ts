/**
 * A domain's nameservers and DNSSEC DS records in the embedded interface, in a browser, in English
 * and German: the warning confirmed before switching to custom nameservers, the change pending at
 * the registry, then in effect (the domain's records not served), and a DS record added. Each page
 * is checked with axe-core and photographed (test-output/e2e/embed-<language>-<page>-<width>.png).
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
/** Intl sets no-break spaces; the sentences are compared with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe.each(["en", "de"] as const)("nameservers in %s", (language) => {
  const { t, locale } = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  let domainId = "";
  let base = "";
  const check = (name: string) => checkPage(page, name, `embed-${language}`);
  const mainText = async () => plain(await page.locator("main").innerText());
  const login = async () => {
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    await page.goto(data!.login_url);
    base = new URL("/", page.url()).href;
  };

  beforeAll(async () => {
    await s.reset();
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    domainId = (await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } })).data!.id;
    await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "@", content: "203.0.113.10" },
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await login();
  });
  afterAll(() => context?.close());

  it("warns before switching, and switches once the warning is confirmed: the change is pending", async () => {
    await page.goto(`${base}domains/${domainId}`);
    await page.getByRole("link", { name: t.delegation.link }).first().click();
    expect(await mainText()).toContain(plain(t.delegation.usingOurs));
    await check("nameservers");
    await page.getByRole("radio", { name: t.delegation.custom }).check();
    await page.getByRole("textbox", { name: t.delegation.nameservers }).fill("ns1.example-dns.net, ns2.example-dns.net");
    await page.getByRole("button", { name: t.delegation.save }).click();
    expect(await mainText()).toContain(plain(t.delegation.confirmMissing));
    await check("nameservers-confirm-missing");
    await page.getByRole("checkbox", { name: t.delegation.confirm }).check();
    await page.getByRole("button", { name: t.delegation.save }).click();
    await page.getByRole("status").waitFor();
    expect(plain(await page.getByRole("status").innerText())).toBe(plain(t.delegation.requested("adalovelace.com")));
    await check("nameservers-pending");
  });

  it("after the registry's delay the custom nameservers are in effect, and the domain's page says its records are not served", async () => {
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 600 } });
    await login();
    await page.goto(`${base}domains/${domainId}/nameservers`);
    expect(await mainText()).toContain(plain(t.delegation.usingCustom("ns1.example-dns.net, ns2.example-dns.net")));
    await page.goto(`${base}domains/${domainId}`);
    expect(await mainText()).toContain(plain(t.delegation.recordsNotServed));
    await check("records-not-served");
  });

  it("adds a DS record", async () => {
    await page.goto(`${base}domains/${domainId}/nameservers`);
    await page.getByRole("textbox", { name: t.delegation.keyTag }).fill("2371");
    await page.getByRole("textbox", { name: t.delegation.digest, exact: true }).fill("AB".repeat(32));
    await page.getByRole("button", { name: t.delegation.dsAddButton }).click();
    await page.getByRole("status").waitFor();
    expect(plain(await page.getByRole("status").innerText())).toBe(plain(t.delegation.dsAdded));
    expect(await mainText()).toContain("ab".repeat(32));
    await check("ds-records");
  });
});
