/**
 * "Is it pointing at us?" in a browser: the domain page's connection section in English and German,
 * what it needs and its one-click fix applied, and the dashboard's Connection page where the partner
 * declares the requirements. Each page is checked with axe-core and photographed
 * (test-output/e2e/embed-<language>-connection-*-<width>.png, dashboard-connection-<width>.png).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { de } from "../../server/embed/i18n/messages-de.js";
import { en } from "../../server/embed/i18n/messages-en.js";
import { OWNER_A, startDashboardTestServer, type DashboardTestServer } from "../support/dashboard-test-server.js";
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
const LANGUAGES = { en: { locale: "en-US", t: en }, de: { locale: "de-DE", t: de } } as const;

describe.each(["en", "de"] as const)("the connection check of a domain's page in %s", (language) => {
  const { t, locale } = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  let domainId: string;
  const check = (name: string) => checkPage(page, name, `embed-${language}`);

  beforeAll(async () => {
    await s.reset();
    await s.api.PUT("/api/v1/connection_requirements", {
      body: {
        requirements: [
          { kind: "apex", addresses: ["203.0.113.10"] },
          { kind: "www", target: "sites.partner.example" },
          { kind: "txt", name: "_partner-verify", value: "token-8f2k" },
        ],
      },
    });
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    domainId = (await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } })).data!.id;
    await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "@", content: "192.0.2.10" },
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await page.goto(data!.login_url);
    await page.goto(new URL(`/domains/${domainId}`, page.url()).href);
  });
  afterAll(() => context?.close());

  it("says what each requirement needs and which changes set the domain up", async () => {
    const section = page.locator("#connection");
    await expect(section.getByRole("heading", { name: t.connection.title(PARTNER) }).isVisible()).resolves.toBe(true);
    expect(await section.innerText()).toContain(t.connection.notConfigured(PARTNER));
    expect(await section.innerText()).toContain(t.connection.update("A", "@", "203.0.113.10"));
    expect(await section.innerText()).toContain(t.connection.create("CNAME", "www", "sites.partner.example"));
    await check("connection-needed");
  });

  it("makes those changes with one button, and then says the domain is set up", async () => {
    await page.locator("#connection").getByRole("button", { name: t.connection.fixButton }).click();
    await page.getByText(t.connection.fixed(3, PARTNER)).waitFor();
    const section = page.locator("#connection");
    expect(await section.innerText()).toContain(t.connection.configured(PARTNER));
    expect(await section.getByRole("button").count()).toBe(0);
    const records = (await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } })).data!.records;
    expect(records.map((record) => `${record.type} ${record.name} ${record.content}`).sort()).toEqual([
      "A @ 203.0.113.10",
      "CNAME www sites.partner.example",
      "TXT _partner-verify token-8f2k",
    ]);
    await check("connection-fixed");
  });
});

describe("the dashboard's Connection page", () => {
  let dashboard: DashboardTestServer;
  beforeAll(async () => {
    dashboard = await startDashboardTestServer();
  });
  afterAll(() => dashboard?.close());

  it("declares the requirements, refusing a broken one at its field", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(scaled(10_000));
    const page = await context.newPage();
    await page.goto(`${dashboard.dashboardUrl}/`);
    await page.getByLabel("E-mail address").fill(OWNER_A.email);
    await page.getByLabel("Password").fill(OWNER_A.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${dashboard.dashboardUrl}/keys`);
    await page.getByRole("link", { name: "Connection" }).click();
    await page.getByLabel("The www host's target (CNAME)").fill("localhost");
    await page.getByRole("button", { name: "Save requirements" }).click();
    await page
      .getByText(/is not a host name/)
      .first()
      .waitFor();
    await checkPage(page, "connection-error");
    await page.getByLabel("The domain's addresses (apex A and AAAA records)").fill("203.0.113.10");
    await page.getByLabel("The www host's target (CNAME)").fill("sites.partner.example");
    await page.getByLabel("Verification records (TXT)").fill("_partner-verify token-8f2k");
    await page.getByRole("button", { name: "Save requirements" }).click();
    await page.getByText("Saved: every domain").waitFor();
    await checkPage(page, "connection");
    await context.close();
  });
});
