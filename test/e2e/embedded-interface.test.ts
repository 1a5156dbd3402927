/**
 * The embedded interface in a real browser: a partner's page on one site frames login_url on another
 * (127.0.0.1 frames localhost), so the session cookie is a third-party cookie and must be partitioned.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import { listen, startEmbedTestServer, type EmbedTestServer, type Listener } from "../support/embed-test-server.js";
import { PARTNER_A_KEY } from "../support/test-server.js";
import { launchChromium, screenshot } from "./support/browser.js";
import { hostPages } from "./support/host-pages.js";

const HOUR_S = 3600;

let browser: Browser;
let s: EmbedTestServer;
/** The partner's application: an origin allowed to frame the interface. */
let partnerHost: Listener;
/** Another origin, not allowed. */
let strangerHost: Listener;

beforeAll(async () => {
  [partnerHost, strangerHost] = await Promise.all([listen(), listen()]);
  s = await startEmbedTestServer({ embedOrigins: [partnerHost.url] });
  partnerHost.serve(hostPages({ apiBaseUrl: s.apiUrl, apiKey: PARTNER_A_KEY, userIdentifier: "u1" }));
  strangerHost.serve(hostPages());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([partnerHost?.close(), strangerHost?.close()]);
  await s?.close();
});

const domainsFrame = (page: Page): FrameLocator => page.frameLocator('iframe[title="Domains"]');
const navLink = (frame: FrameLocator, name: string) => frame.getByRole("navigation", { name: "Main" }).getByRole("link", { name });

async function newPage(viewport = { width: 1100, height: 1000 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(scaled(10_000));
  return { context, page: await context.newPage() };
}

/** The user's path through the interface, in order: each step starts where the last one ended. */
describe("a user in the partner's application", () => {
  let context: BrowserContext;
  let page: Page;
  let frame: FrameLocator;
  let loginUrl: string;

  beforeAll(async () => {
    ({ context, page } = await newPage());
  });
  afterAll(() => context?.close());

  it("opens login_url in the partner's iframe: token exchanged for a partitioned cookie, address without the token", async () => {
    await page.goto(`${partnerHost.url}/`);
    loginUrl = (await page.locator('iframe[title="Domains"]').getAttribute("src"))!;
    expect(loginUrl).toMatch(new RegExp(`^${s.embedUrl}/session/[A-Za-z0-9]{43}$`));
    frame = domainsFrame(page);
    await frame.getByRole("heading", { name: "Your domains" }).waitFor();
    expect(await frame.getByText("Signed in as").textContent()).toBe("Signed in as u1");
    const embedFrame = page.frames().find((candidate) => candidate.url().startsWith(s.embedUrl))!;
    expect(embedFrame.url()).toBe(`${s.embedUrl}/domains`);
    const cookies = await context.cookies(s.embedUrl);
    expect(cookies).toMatchObject([
      { name: "__Host-embed_session", secure: true, httpOnly: true, sameSite: "None", partitionKey: "http://127.0.0.1" },
    ]);
    await screenshot(page, "01-domains-empty");
  });

  it("searches a name and sees its availability and price", async () => {
    await navLink(frame, "Find a domain").click();
    await frame.getByLabel("Domain name or word").fill("adalovelace.com");
    await frame.getByRole("button", { name: "Search" }).click();
    await frame.locator("p.availability.available").waitFor();
    expect(await frame.locator(".price").textContent()).toBe("$12.99 per year");
    await screenshot(page, "02-search-result");
  });

  it("reviews the total, then buys it: registered at once, charged, domain.registered emitted", async () => {
    await frame.getByRole("button", { name: "Review purchase adalovelace.com" }).click();
    await frame.getByRole("button", { name: "Buy for $12.99" }).click();
    await frame.getByRole("heading", { name: "adalovelace.com", level: 1 }).waitFor();
    expect(await frame.getByRole("status").textContent()).toBe(
      "adalovelace.com is yours. $12.99 was charged for 1 year; it is registered until November 22, 2027.",
    );
    const user = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(user.data!.total_spent).toBe("12.99");
    expect(s.outbox.events.map((event) => event.type)).toContain("domain.registered");
    await screenshot(page, "03-purchased");
  });

  it("is told what a bad MX record needs in words, next to the field", async () => {
    await frame.getByLabel("Type").selectOption("MX");
    await frame.getByLabel("Name", { exact: true }).fill("@");
    await frame.getByLabel("Value").fill("not a host name");
    await frame.getByLabel("Priority").fill("10");
    await frame.getByRole("button", { name: "Add record" }).click();
    const summary = frame.getByRole("alert");
    await summary.waitFor();
    expect(await summary.textContent()).toContain("Enter the mail server's host name, such as mail.example.com.");
    expect(await frame.locator("#add-content-error").textContent()).toBe(
      "Error: Enter the mail server's host name, such as mail.example.com.",
    );
    expect(await frame.getByLabel("Value").getAttribute("aria-invalid")).toBe("true");
    // The script moved focus to the summary, so a screen reader reads it first.
    expect(await frame.locator(".error-summary").evaluate((element) => element === document.activeElement)).toBe(true);
    await screenshot(page, "04-mx-validation-message");
  });

  it("corrects it and adds the MX record", async () => {
    await frame.getByLabel("Value").fill("mail.adalovelace.com");
    await frame.getByRole("button", { name: "Add record" }).click();
    await frame.getByText("The MX record @ is added to adalovelace.com.").waitFor();
    expect(await frame.locator(".record-content").textContent()).toContain("mail.adalovelace.com");
    await screenshot(page, "05-mx-added");
  });

  it("turns auto-renew off with the switch", async () => {
    await navLink(frame, "Your domains").click();
    const autoRenew = frame.getByRole("switch", { name: "Auto-renew" });
    expect(await autoRenew.getAttribute("aria-checked")).toBe("true");
    await autoRenew.click();
    await frame.getByText("Auto-renew is off for adalovelace.com. It expires on November 22, 2027 unless you renew it.").waitFor();
    expect(await frame.getByRole("switch", { name: "Auto-renew" }).getAttribute("aria-checked")).toBe("false");
    await screenshot(page, "06-auto-renew-off");
  });

  it("the API then shows the domain, its record and the setting", async () => {
    const { data } = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } });
    expect(data!.domains).toMatchObject([{ name: "adalovelace.com", status: "active", auto_renew: false, dns_records_count: 1 }]);
    const records = await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: data!.domains[0]!.id } } });
    expect(records.data!.records).toMatchObject([{ type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 }]);
  });

  it("edits the MX record while the partner changes it through the API: is told, and nothing is overwritten", async () => {
    const { data } = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } });
    const domainId = data!.domains[0]!.id;
    const recordId = (await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } })).data!.records[0]!
      .id;
    await frame.getByRole("link", { name: "adalovelace.com" }).first().click();
    await frame.getByRole("link", { name: "Edit MX record @" }).click();
    await frame.getByLabel("Mail server").fill("mx-by-user.adalovelace.com");
    // Meanwhile, the partner's code changes the same record.
    await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domainId, record_id: recordId } },
      body: { content: "mx-by-partner.adalovelace.com" },
    });
    await frame.getByRole("button", { name: "Save record" }).click();
    const warning = frame.getByRole("alert");
    await warning.waitFor();
    expect(await warning.textContent()).toContain("Someone else changed this record while you were editing it");
    expect(await warning.textContent()).toContain("mx-by-partner.adalovelace.com");
    expect(await frame.getByLabel("Mail server").inputValue()).toBe("mx-by-user.adalovelace.com");
    const stored = await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } });
    expect(stored.data!.records[0]!.content).toBe("mx-by-partner.adalovelace.com");
    await screenshot(page, "07-changed-meanwhile");
    // Saving again, having seen the current values, applies the user's change.
    await frame.getByRole("button", { name: "Save record" }).click();
    await frame.getByText("The MX record @ is saved.").waitFor();
    expect(await frame.locator(".record-content").textContent()).toContain("mx-by-user.adalovelace.com");
  });

  it("reopens the same login_url in a fresh browser 23 hours 59 minutes later", async () => {
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 24 * HOUR_S - 60 } });
    const fresh = await newPage();
    await fresh.page.goto(`${partnerHost.url}/frame?src=${encodeURIComponent(loginUrl)}`);
    await domainsFrame(fresh.page).getByRole("link", { name: "adalovelace.com", exact: true }).waitFor();
    await screenshot(fresh.page, "07-reopened-within-24h");
    await fresh.context.close();
  });

  it("refuses the login_url after 24 hours, and ends the open session too", async () => {
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 60 } });
    const fresh = await newPage();
    await fresh.page.goto(`${partnerHost.url}/frame?src=${encodeURIComponent(loginUrl)}`);
    await domainsFrame(fresh.page).getByRole("heading", { name: "This session has expired" }).waitFor();
    expect(await domainsFrame(fresh.page).locator("body").textContent()).not.toContain("adalovelace.com");
    await screenshot(fresh.page, "08-expired");
    await fresh.context.close();
    await navLink(frame, "Your domains").click();
    await frame.getByRole("heading", { name: "This session has expired" }).waitFor();
  });
});

describe("refusals", () => {
  it("a forged token opens nothing, and its answer, which names no partner, is framed by no one", async () => {
    const { context, page } = await newPage();
    const violation = page.waitForEvent("console", { predicate: (message) => message.text().includes("frame-ancestors") });
    await page.goto(`${partnerHost.url}/frame?src=${encodeURIComponent(`${s.embedUrl}/session/${"A".repeat(43)}`)}`);
    expect((await violation).text()).toContain(`violates the following Content Security Policy directive: "frame-ancestors 'none'"`);
    expect(await context.cookies(s.embedUrl)).toEqual([]);
    await screenshot(page, "09-forged-token");
    await context.close();
  });

  it("an origin the partner did not allow cannot frame the interface (CSP frame-ancestors)", async () => {
    const loginUrl = await s.loginUrl("u1");
    const { context, page } = await newPage();
    const violation = page.waitForEvent("console", { predicate: (message) => message.text().includes("frame-ancestors") });
    await page.goto(`${strangerHost.url}/frame?src=${encodeURIComponent(loginUrl)}`);
    expect((await violation).text()).toContain(
      `violates the following Content Security Policy directive: "frame-ancestors ${partnerHost.url}"`,
    );
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
    expect(frame.url()).not.toContain(s.embedUrl);
    expect(
      await domainsFrame(page)
        .locator("body")
        .textContent({ timeout: 1000 })
        .catch(() => ""),
    ).not.toContain("Your domains");
    await screenshot(page, "10-stranger-origin-blocked");
    // The same URL on the partner's page opens: what refused it was the framing origin.
    await page.goto(`${partnerHost.url}/frame?src=${encodeURIComponent(loginUrl)}`);
    await domainsFrame(page).getByRole("heading", { name: "Your domains" }).waitFor();
    await context.close();
  });
});

describe("small screens and the keyboard", () => {
  it("fits a 360 px wide frame without sideways scrolling, and buys a name with the keyboard alone", async () => {
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const { context, page } = await newPage({ width: 400, height: 900 });
    await page.goto(`${partnerHost.url}/?width=narrow`);
    const frame = domainsFrame(page);
    await frame.getByRole("heading", { name: "Your domains" }).waitFor();
    const embed = page.frames().find((candidate) => candidate.url().startsWith(s.embedUrl))!;
    expect(await embed.evaluate(() => window.innerWidth)).toBeLessThanOrEqual(360);
    await navLink(frame, "Find a domain").focus();
    await page.keyboard.press("Enter");
    await frame.getByLabel("Domain name or word").waitFor();
    await frame.getByLabel("Domain name or word").focus();
    await page.keyboard.type("hopper.dev");
    await page.keyboard.press("Enter");
    await frame.locator("p.availability.available").waitFor();
    expect(await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "11-narrow-search");
    // Tab from the years to the review button; focus is visible (an outline), and Enter opens the review.
    await frame.getByLabel("Register for").focus();
    await page.keyboard.press("Tab");
    const focused = await embed.evaluate(() => ({
      text: document.activeElement?.textContent,
      outline: getComputedStyle(document.activeElement!).outlineStyle,
    }));
    expect(focused).toEqual({ text: "Review purchase hopper.dev", outline: "solid" });
    await page.keyboard.press("Enter");
    const buy = frame.getByRole("button", { name: "Buy for $13.99" });
    await buy.waitFor();
    await buy.focus();
    await page.keyboard.press("Enter");
    await frame.getByText("hopper.dev is yours.", { exact: false }).waitFor();
    expect(await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await frame.getByLabel("Type").selectOption("TXT");
    await screenshot(page, "12-narrow-domain");
    await context.close();
  });
});
