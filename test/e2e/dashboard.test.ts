/**
 * The partner dashboard as a newcomer uses it, in headless Chromium against `npm start`'s server
 * (server/main.ts, in memory): sign in with the demo sign-in the banner prints, create a named
 * sandbox key, call the API with it, see the call in the request log, register a webhook endpoint
 * and see its delivery, revoke the key and see the next call refused. Every page is checked with
 * axe-core (WCAG 2.1 A and AA) and photographed at 1280 and 375 pixels.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline, pause, scaled } from "../../scripts/lib/deadlines.js";
import { buildReferenceDocs, REFERENCE_DIRECTORY } from "../../scripts/lib/reference-docs.js";
import { spawnServer, type ServerProcess } from "../../scripts/lib/server-process.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";
import { checkPage } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";
import { freePort } from "../support/listen.js";

let server: ServerProcess;
let browser: Browser;
let receiver: WebhookReceiver;
let apiUrl: string;
let dashboardUrl: string;
let signIn: { email: string; password: string };

async function banner(process: ServerProcess): Promise<string> {
  for (const deadline = new Deadline(60_000); !deadline.passed; ) {
    if (/Try it:\n.*\n/.test(process.output())) return process.output();
    if (process.child.exitCode !== null) break;
    await pause(20);
  }
  throw new Error(`the server printed no banner:\n${process.output()}`);
}

beforeAll(async () => {
  // The HTML reference the portal serves, as `npm start`'s build makes it (a clean checkout has none).
  buildReferenceDocs(REFERENCE_DIRECTORY, { onlyStale: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

// Each test meets a server and a receiver of its own: nothing another test (or an earlier try) made.
beforeEach(async () => {
  // Its e-mail (the invitation) goes to the log in the sandbox: info level, where the test reads it.
  server = spawnServer(["--import", "tsx", "server/main.ts"], { DASHBOARD_PORT: String(await freePort()), LOG_LEVEL: "info" });
  const text = await banner(server);
  apiUrl = /server on (http:\/\/\S+)/.exec(text)![1]!;
  dashboardUrl = /Partner dashboard: (http:\/\/\S+?)\/ /.exec(text)![1]!;
  const [, email, password] = /sign in as (\S+) with the password (\S+)/.exec(text)!;
  signIn = { email: email!, password: password! };
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver?.stop();
  await server?.stop();
});

const callApi = (key: string) => fetch(`${apiUrl}/api/v1/domains/tlds`, { headers: { Authorization: `Bearer ${key}` } });

/** What `read` finds once the page is loaded again: for what the server shows a moment later. */
async function reloaded<T>(page: Page, read: () => Promise<T>): Promise<T> {
  await page.reload();
  return read();
}

async function signedInPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${dashboardUrl}/`);
  await page.getByLabel("E-mail address").fill(signIn.email);
  await page.getByLabel("Password").fill(signIn.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${dashboardUrl}/keys`);
  return page;
}

describe("a newcomer, without reading code", () => {
  it("signs in, makes a named sandbox key, calls the API, sees the call, gets a webhook delivered, revokes the key", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: dashboardUrl });
    const start = await context.newPage();
    await start.goto(`${dashboardUrl}/`);
    expect(start.url()).toBe(`${dashboardUrl}/sign-in?next=%2F`);
    await checkPage(start, "sign-in");
    await start.close();

    const page = await signedInPage(context);
    await expect(page.getByRole("rowheader", { name: "Demo key (npm start)" }).count()).resolves.toBe(1);
    await checkPage(page, "keys");

    // A named key, shown once, copied with the button.
    await page.getByLabel("Name", { exact: true }).fill("Newcomer's laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Your new key “Newcomer's laptop”" }).waitFor();
    const key = await page.locator("#new-key").inputValue();
    expect(key).toMatch(/^sk_sandbox_[A-Za-z0-9]{32}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect
      .poll(() =>
        page
          .getByRole("status")
          .filter({ hasText: /Copied|Selected/ })
          .count(),
      )
      .toBe(1);
    await checkPage(page, "key-created");

    // The key works, and the call shows in the request log with the key's name.
    const call = await callApi(key);
    expect(call.status).toBe(200);
    await page.getByRole("link", { name: "Request log" }).click();
    const row = page.getByRole("row").filter({ hasText: call.headers.get("x-request-id")! });
    await expect.poll(() => reloaded(page, () => row.count())).toBe(1);
    await expect(row.innerText()).resolves.toMatch(/GET\s+\/api\/v1\/domains\/tlds\s+200\s+.*ms\s+Newcomer's laptop/);
    await page.getByLabel("Status").selectOption("4");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(row.count()).resolves.toBe(0);
    await checkPage(page, "request-log");

    // A webhook endpoint, and its test event delivered.
    await page.getByRole("link", { name: "Webhooks" }).click();
    await checkPage(page, "webhooks-empty");
    await page.getByRole("link", { name: "Add an endpoint" }).click();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByLabel("Description (optional)").fill("Order service");
    await page.getByLabel("user.deleted").check();
    await checkPage(page, "webhook-new");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { name: "Signing secret" }).waitFor();
    expect(await page.locator("#signing-secret").inputValue()).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.length, { timeout: scaled(10_000) }).toBe(1);
    await expect
      .poll(() => reloaded(page, () => page.getByText("succeeded", { exact: true }).count()), { timeout: scaled(10_000) })
      .toBe(1);
    await page.getByText(/^1 attempt/).click();
    await expect(page.getByText(/HTTP 200, .* ms/).count()).resolves.toBeGreaterThan(0);
    await checkPage(page, "webhook-endpoint");

    // Revoked: the next call is refused.
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("link", { name: "Revoke Newcomer's laptop" }).click();
    await checkPage(page, "key-revoke");
    await page.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("The key is revoked").waitFor();
    expect((await callApi(key)).status).toBe(401);
    await context.close();
  });

  it("finds every other page usable and accessible: sign-up, sandbox, embedding, team, account, the portal", async () => {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto(`${dashboardUrl}/sign-up`);
    await checkPage(visitor, "sign-up");
    await visitor.getByLabel("Company name").fill("Acme Hosting");
    await visitor.getByLabel("Work e-mail address").fill("ada@acme.test");
    await visitor.getByLabel("Password").fill("short");
    await visitor.getByRole("button", { name: "Create account" }).click();
    await visitor.getByText("Use at least 10 characters.").first().waitFor();
    await expect(visitor.locator(".error-summary").evaluate((node) => node === document.activeElement)).resolves.toBe(true);
    await checkPage(visitor, "sign-up-error");
    await visitor.goto(`${dashboardUrl}/docs/`);
    await checkPage(visitor, "portal");
    await visitor.getByRole("link", { name: "rules of the API" }).click();
    await visitor.getByRole("heading", { name: "The rules of the API" }).waitFor();
    await checkPage(visitor, "portal-rules");
    await visitor.goto(`${dashboardUrl}/docs/`);
    await visitor.getByRole("link", { name: "changelog" }).click();
    await visitor.getByRole("heading", { name: "Breaking changes" }).first().waitFor();
    await checkPage(visitor, "portal-changelog");
    await visitor.goto(`${dashboardUrl}/docs/`);
    const href = await visitor.getByRole("link", { name: "partner-api.yml" }).first().getAttribute("href");
    await expect((await visitor.request.get(`${dashboardUrl}${href}`)).text()).resolves.toContain("openapi: 3.0");
    await visitor.getByRole("link", { name: "Read Partner API (Variant R)" }).click();
    await visitor
      .getByRole("heading", { name: /Partner/ })
      .first()
      .waitFor();
    await visitor.close();

    const page = await signedInPage(context);
    await page.getByRole("link", { name: "Sandbox" }).click();
    await checkPage(page, "sandbox");
    await page.getByLabel("Advance by").fill("2");
    await page.getByRole("button", { name: "Advance clock" }).click();
    await page.getByText("2 days 0 hours 0 minutes").waitFor();
    await checkPage(page, "sandbox-advanced");
    await page.getByRole("link", { name: "Reset sandbox data…" }).click();
    await checkPage(page, "sandbox-reset");
    await page.getByRole("button", { name: "Delete sandbox data" }).click();
    await page.getByText("Your sandbox data is deleted").waitFor();

    await page.getByRole("link", { name: "Embedding" }).click();
    await page.getByLabel("Origins, one per line").fill("https://app.example.com\nhttp://insecure.example.com");
    await page.getByRole("button", { name: "Save origins" }).click();
    await page
      .getByText(/must use https/)
      .first()
      .waitFor();
    await checkPage(page, "embedding-error");
    await page.getByLabel("Origins, one per line").fill("https://app.example.com\nhttps://*.example.com");
    await page.getByRole("button", { name: "Save origins" }).click();
    await page.getByText("Saved").waitFor();
    await expect(page.getByLabel("Origins, one per line").inputValue()).resolves.toBe("https://app.example.com\nhttps://*.example.com");
    await checkPage(page, "embedding");

    await page.getByRole("link", { name: "Team" }).click();
    await page.getByLabel("E-mail address").fill("dev@example.com");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation sent.").waitFor();
    await checkPage(page, "team");
    const invitation = /"link":"(http:[^"]+\/invitations\/[^"]+)"/.exec(server.output())?.[1];
    expect(invitation).toBeDefined();

    await page.getByRole("link", { name: "Account" }).click();
    await checkPage(page, "account");

    // The invitee joins through the link the sandbox wrote to the server's log.
    const invitee = await (await browser.newContext()).newPage();
    await invitee.goto(invitation!);
    await checkPage(invitee, "invitation");
    await invitee.getByLabel("Password").fill("a long enough password");
    await invitee.getByRole("button", { name: "Join" }).click();
    await invitee.waitForURL(/\/keys\?welcome=1$/);
    await invitee.getByText("Welcome!").waitFor();
    await invitee.goto(`${dashboardUrl}/nothing-here`);
    await checkPage(invitee, "not-found");
    await context.close();
  });
});
