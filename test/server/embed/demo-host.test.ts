/** The demo partner's page (`npm start`): frames a fresh login_url, and the key stays on its server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHostApp } from "../../../server/embed/demo-host.js";
import { listen, startEmbedTestServer, type EmbedTestServer, type Listener } from "../../support/embed-test-server.js";
import { PARTNER_A_KEY } from "../../support/test-server.js";
import { EmbedBrowser } from "./support/embed-browser.js";

let s: EmbedTestServer;
let host: Listener;
beforeAll(async () => {
  s = await startEmbedTestServer();
  host = await listen();
  host.serve(createDemoHostApp({ apiBaseUrl: s.apiUrl, apiKey: PARTNER_A_KEY, userIdentifier: "demo_user" }));
});
afterAll(async () => {
  await host.close();
  await s.close();
});

describe("GET / of the demo host", () => {
  it("frames a fresh login_url of the demo user, and the page holds no API key", async () => {
    const first = await (await fetch(`${host.url}/`)).text();
    const second = await (await fetch(`${host.url}/?width=narrow`)).text();
    const src = (html: string) => /<iframe title="Domains" src="([^"]+)"/.exec(html)![1]!;
    expect(src(first)).toMatch(new RegExp(`^${s.embedUrl}/session/[A-Za-z0-9]{43}$`));
    expect(src(second)).not.toBe(src(first));
    expect(second).toContain("width: 360px");
    for (const html of [first, second]) expect(html).not.toMatch(/sk_sandbox_|Bearer/);
    const page = await new EmbedBrowser(s.embedUrl).open(src(first));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Signed in as <strong>demo_user</strong>");
    expect(page.html).not.toMatch(/sk_sandbox_|Bearer/);
  });
});
