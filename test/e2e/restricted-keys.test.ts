/**
 * A restricted key for an ACME client (issue 36), made in the partner dashboard in headless Chromium
 * (the dashboard test server, in process): the preset filled in, the domain asked for, the key shown
 * once and listed with its access, then used against the API: it sets the challenge TXT and is
 * refused elsewhere, and the request log shows both with the key and the scope decision. Each page
 * is checked with axe-core and photographed (test-output/e2e/dashboard-<page>-<width>.png). The
 * dashboard is English only.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { OWNER_A, startDashboardTestServer, type DashboardTestServer } from "../support/dashboard-test-server.js";
import { checkPage } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";

const DOMAIN = "acme-example.com";

let s: DashboardTestServer;
let browser: Browser;
let domainId: string;

beforeAll(async () => {
  [s, browser] = await Promise.all([startDashboardTestServer(), launchChromium()]);
  await s.api.api.POST("/api/v1/users", { body: { user_identifier: "u1", email: "u1@example.com" } });
  domainId = await s.api.registerDomainFor("u1", DOMAIN);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const callApi = (key: string, path: string, body?: unknown) =>
  fetch(`${s.api.baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(scaled(10_000));
  const page = await context.newPage();
  await page.goto(`${s.dashboardUrl}/sign-in`);
  await page.getByLabel("E-mail address").fill(OWNER_A.email);
  await page.getByLabel("Password").fill(OWNER_A.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${s.dashboardUrl}/keys`);
  return page;
}

describe("a key for an ACME client, in the dashboard", () => {
  it("is made from the preset, shown once, listed, sets the challenge TXT only, and both requests show in the log", async () => {
    const page = await signedInPage();
    // A full-access key is the default: the scope grid shows only for a restricted one.
    await expect(page.getByRole("group", { name: "Scopes" }).isVisible()).resolves.toBe(false);
    await page.getByLabel("Restricted", { exact: true }).check();
    await expect(page.getByRole("group", { name: "Scopes" }).isVisible()).resolves.toBe(true);
    await page.getByLabel("DNS records: read").check();
    // Back to full access: what was chosen for a restricted key is hidden and not sent.
    await page.getByLabel("Full access", { exact: true }).check();
    await expect(page.getByRole("group", { name: "Scopes" }).isVisible()).resolves.toBe(false);
    await expect(page.getByLabel("DNS records: read").isDisabled()).resolves.toBe(true);

    await page.getByRole("link", { name: "ACME client (DNS-01 challenge)" }).click();
    await expect(page.getByLabel("DNS records: write").isChecked()).resolves.toBe(true);
    await expect(page.getByLabel("Record names (optional)").inputValue()).resolves.toBe("_acme-challenge");
    await expect(page.getByLabel("Record types (optional)").inputValue()).resolves.toBe("TXT");
    await checkPage(page, "restricted-key-acme-preset");

    // The domain is what the preset asks for: without it, the summary links to the field.
    await page.getByRole("button", { name: "Create key" }).click();
    const summary = page.locator(".error-summary");
    await summary.waitFor();
    await expect(summary.evaluate((node) => node === document.activeElement)).resolves.toBe(true);
    await summary.getByRole("link", { name: /Enter the domain the ACME client/ }).click();
    await expect(page.locator("#key-domains").evaluate((node) => node === document.activeElement)).resolves.toBe(true);
    await checkPage(page, "restricted-key-errors");

    await page.getByLabel("Domains", { exact: true }).fill(DOMAIN);
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Your new key “ACME client”" }).waitFor();
    const key = await page.locator("#new-key").inputValue();
    expect(key).toMatch(/^sk_sandbox_[A-Za-z0-9]{32}$/);
    await expect(page.locator(".grant-facts").innerText()).resolves.toMatch(/Restricted\s+DNS records: write/);
    await checkPage(page, "restricted-key-created");

    // Shown once: the list names it with its access and restrictions, never the key.
    await page.getByRole("link", { name: "API keys" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "ACME client" }) });
    await expect(row.innerText()).resolves.toMatch(
      new RegExp(`Restricted\\s+DNS records: write\\s+Domains: ${DOMAIN}\\s+Record names: _acme-challenge\\s+Record types: TXT`),
    );
    await expect(page.content()).resolves.not.toContain(key);
    await checkPage(page, "restricted-keys-list");

    // The challenge TXT is set; the same key is refused for anything else.
    const challenge = await callApi(key, `/api/v1/domains/${domainId}/dns`, {
      type: "TXT",
      name: "_acme-challenge",
      content: "gfj9Xq-Rg85nM",
    });
    expect(challenge.status).toBe(201);
    const users = await callApi(key, "/api/v1/users");
    expect(users.status).toBe(403);
    await expect(users.json()).resolves.toMatchObject({
      error: "forbidden",
      details: { code: "insufficient_scope", required_scope: "users:read" },
    });
    const elsewhere = await callApi(key, `/api/v1/domains/${domainId}/dns`, { type: "A", name: "www", content: "192.0.2.10" });
    expect(elsewhere.status).toBe(403);

    await page.getByRole("link", { name: "Request log" }).click();
    const logRow = (response: Response) => page.getByRole("row").filter({ hasText: response.headers.get("x-request-id")! });
    await expect(logRow(challenge).innerText()).resolves.toMatch(
      /POST\s+\/api\/v1\/domains\/\{domain_id\}\/dns\s+201[\s\S]*ACME client[\s\S]*Allowed/,
    );
    await expect(logRow(users).innerText()).resolves.toMatch(
      /GET\s+\/api\/v1\/users\s+403[\s\S]*ACME client[\s\S]*Refused\s+missing scope users:read/,
    );
    await expect(logRow(elsewhere).innerText()).resolves.toMatch(/403[\s\S]*Refused\s+by restriction: record/);
    await checkPage(page, "restricted-keys-log");
    await page.context().close();
  });
});
