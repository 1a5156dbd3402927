/**
 * The icon of the dashboard and of the developer portal: their pages link it, and the
 * /favicon.ico browsers ask for by themselves is answered without an error, signed in or not.
 */
import { describe, expect, it } from "vitest";
import { FAVICON_SVG } from "../../../server/web/favicon.js";
import { useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();
const LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

describe("the dashboard's icon", () => {
  it("is served as SVG to a browser that is not signed in", async () => {
    const response = await fetch(`${server.dashboardUrl}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toBe(FAVICON_SVG);
  });

  it("answers /favicon.ico with 204, not a 404 nor the sign-in page", async () => {
    const response = await fetch(`${server.dashboardUrl}/favicon.ico`, { redirect: "manual" });
    expect(response.status).toBe(204);
  });

  it.each(["/sign-in", "/docs/"])("is linked from %s", async (path) => {
    expect(await (await fetch(`${server.dashboardUrl}${path}`)).text()).toContain(LINK);
  });

  it("is linked from the pages of a signed-in member", async () => {
    const browser = await server.signedIn();
    expect((await browser.get("/keys")).text).toContain(LINK);
  });
});
