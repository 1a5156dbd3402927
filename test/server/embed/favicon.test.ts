/**
 * The icon of the embed host and of the demo partner's page: their pages link it, and the
 * /favicon.ico browsers ask for by themselves is answered without an error, with no session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHostApp } from "../../../server/embed/demo-host.js";
import { FAVICON_SVG } from "../../../server/web/favicon.js";
import { listen, startEmbedTestServer, type EmbedTestServer, type Listener } from "../../support/embed-test-server.js";
import { PARTNER_A_KEY } from "../../support/test-server.js";
import { EmbedBrowser } from "./support/embed-browser.js";

let s: EmbedTestServer;
let demoHost: Listener;
beforeAll(async () => {
  s = await startEmbedTestServer();
  demoHost = await listen();
  demoHost.serve(createDemoHostApp({ apiBaseUrl: s.apiUrl, apiKey: PARTNER_A_KEY, userIdentifier: "demo_user" }));
});
afterAll(async () => {
  await demoHost.close();
  await s.close();
});

const LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
/** The embed host as the browser reaches it: login_url names localhost. */
const embedHost = () => s.embedUrl.replace("localhost", "127.0.0.1");

describe.each([
  ["the embed host", embedHost],
  ["the demo partner's page", () => demoHost.url],
])("the icon of %s", (_host, base) => {
  it("is served as SVG, without a session", async () => {
    const response = await fetch(`${base()}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toBe(FAVICON_SVG);
  });

  it("answers /favicon.ico with 204, not a 404", async () => {
    const response = await fetch(`${base()}/favicon.ico`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });
});

describe("the pages link the icon", () => {
  it("in the embedded interface, signed in or not", async () => {
    const page = await new EmbedBrowser(s.embedUrl).open(await s.loginUrl());
    expect(page.status).toBe(200);
    expect(page.html).toContain(LINK);
    expect(await (await fetch(`${embedHost()}/domains`)).text()).toContain(LINK);
  });

  it("on the demo partner's page", async () => {
    expect(await (await fetch(`${demoHost.url}/`)).text()).toContain(LINK);
  });
});
