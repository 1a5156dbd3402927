/** The partner's look and the reader's language on the embed host's pages, from the session's partner and the browser. */
import { describe, expect, it } from "vitest";
import { solidPng } from "../../support/png.js";
import { EmbedBrowser, textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: () => "/domains" });

describe("the partner's look", () => {
  it("is absent until the partner sets one: no stylesheet or logo of its own", async () => {
    const page = await signedIn.browser.get("/domains");
    expect(page.html).not.toContain("/branding/");
    expect((await signedIn.browser.get("/branding/logo")).status).toBe(404);
  });

  it("links the accent's stylesheet and the logo, served for the session's partner only", async () => {
    const { branding } = signedIn.server.services.persistence;
    const logo = solidPng(60, 20, [10, 20, 30]);
    await branding.setAccentColour("partner_a", "sandbox", "#6a1b9a", new Date());
    await branding.setLogo("partner_a", "sandbox", { type: "image/png", bytes: logo }, new Date());
    const page = await signedIn.browser.get("/domains");
    expect(page.html).toContain('<link rel="stylesheet" href="/branding/style.css?v=6a1b9a">');
    const version = (await branding.brandingOf("partner_a", "sandbox")).logo!.version;
    expect(page.html).toContain(`<img class="partner-logo" src="/branding/logo?v=${version}" alt="partner_a logo">`);
    const style = await signedIn.browser.get("/branding/style.css?v=6a1b9a");
    expect(style.headers.get("content-type")).toMatch(/^text\/css/);
    expect(style.html).toBe(":root { --accent: #6a1b9a; }\n");
    expect(style.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const served = await fetch(`${signedIn.server.embedUrl}/branding/logo?v=${version}`, { headers: { cookie: signedIn.browser.cookie! } });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);
    // Partner B's users see none of it.
    const other = new EmbedBrowser(signedIn.server.embedUrl);
    const { data } = await signedIn.server.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
    await other.open(data!.login_url);
    expect(other.lastPage!.html).not.toContain("/branding/");
    expect((await other.get("/branding/logo")).status).toBe(404);
    expect((await other.get("/branding/style.css")).html).toBe("");
  });

  it("needs a session, as every page does", async () => {
    const response = await fetch(`${signedIn.server.embedUrl}/branding/style.css`);
    expect(response.status).toBe(401);
  });
});

describe("the reader's language", () => {
  it("is the partner's choice for the session, and the browser's without one", async () => {
    const chosen = await signedIn.server.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale: "de-AT" } });
    const german = new EmbedBrowser(signedIn.server.embedUrl);
    const page = await german.open(chosen.data!.login_url);
    expect(page.html).toContain('<html lang="de-AT">');
    expect(textOf(page.html)).toContain("Ihre Domains");
    expect(textOf(page.html)).toContain("Läuft ab 22. November 2027");
    const browsers = await fetch(`${signedIn.server.embedUrl}/domains`, {
      headers: { cookie: signedIn.browser.cookie!, "accept-language": "de" },
    });
    expect(textOf(await browsers.text())).toContain("Ihre Domains");
  });

  it("speaks the browser's language on the pages shown without a session", async () => {
    const response = await fetch(`${signedIn.server.embedUrl}/session/${"A".repeat(43)}`, {
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    expect(response.status).toBe(404);
    expect(textOf(await response.text())).toContain("Diese Sitzung ist abgelaufen");
  });
});
