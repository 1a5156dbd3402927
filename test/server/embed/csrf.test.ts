/** Every state-changing request of the embed host passes the CSRF checks, or changes nothing. */
import { entityTag } from "../../../server/platform/entity-tags.js";
import { describe, expect, it } from "vitest";
import { csrfRefusal } from "../../../server/web/csrf.js";
import { EmbedBrowser, textOf, type PostOptions } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ embedOrigins: ["https://app.partner-a.example"], startPage: () => "/domains" });

/** The entity tag of the domain as stored now: what a page showing it puts in its switches. */
const domainTag = async (domainId = signedIn.domainId) => entityTag((await signedIn.server.services.store.findDomain(domainId))!);

const autoRenew = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: signedIn.domainId } } })).data!.auto_renew;

describe("POST /domains/{id}/settings", () => {
  it("accepts a same-origin form post with the session's token", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { auto_renew: "false", etag: await domainTag() });
    expect(page.status).toBe(200);
    expect(await autoRenew()).toBe(false);
  });

  it.each<[string, PostOptions]>([
    ["without a token", { csrf: null }],
    ["with a wrong token", { csrf: "x".repeat(43) }],
    ["with an empty token", { csrf: "" }],
    ["from another site (Sec-Fetch-Site: cross-site)", { headers: { "sec-fetch-site": "cross-site" } }],
    ["from a sibling subdomain (Sec-Fetch-Site: same-site)", { headers: { "sec-fetch-site": "same-site" } }],
    ["with a foreign Origin", { headers: { origin: "https://evil.example" } }],
    ["with the framing partner's Origin", { headers: { origin: "https://app.partner-a.example" } }],
  ])("refuses a post %s with 403, changing nothing and emitting nothing", async (_case, options) => {
    const page = await signedIn.browser.post(
      `/domains/${signedIn.domainId}/settings`,
      { auto_renew: "false", etag: await domainTag() },
      options,
    );
    expect(page.status).toBe(403);
    expect(textOf(page.html)).toContain("This form could not be sent");
    expect(await autoRenew()).toBe(true);
    expect(signedIn.server.outbox.events).toEqual([]);
    expect(signedIn.server.logs.at(-1)).toMatch(/^embed: refused POST/);
  });

  it("refuses the token of another session of the same user", async () => {
    const other = new EmbedBrowser(signedIn.server.embedUrl);
    await other.open(await signedIn.server.loginUrl("u1"));
    const page = await signedIn.browser.post(
      `/domains/${signedIn.domainId}/settings`,
      { auto_renew: "false", etag: await domainTag() },
      { csrf: other.csrfToken() },
    );
    expect(page.status).toBe(403);
    expect(await autoRenew()).toBe(true);
  });

  it("accepts a post from an older browser that sends neither Origin nor Fetch Metadata, on the token alone", async () => {
    const page = await signedIn.browser.post(
      `/domains/${signedIn.domainId}/settings`,
      { auto_renew: "false", etag: await domainTag() },
      { headers: { "sec-fetch-site": null, origin: null } },
    );
    expect(page.status).toBe(200);
  });

  it("accepts the embed host's own Origin", async () => {
    const page = await signedIn.browser.post(
      `/domains/${signedIn.domainId}/settings`,
      { auto_renew: "false", etag: await domainTag() },
      { headers: { origin: signedIn.server.embedUrl } },
    );
    expect(page.status).toBe(200);
  });
});

describe("every POST route checks the token", () => {
  it.each([
    "/purchase",
    "/domains/DOMAIN/renew",
    "/domains/DOMAIN/dns",
    "/domains/DOMAIN/templates",
    "/domains/DOMAIN/dns/rec_x",
    "/domains/DOMAIN/dns/rec_x/delete",
  ])("POST %s without a token is 403", async (path) => {
    const page = await signedIn.browser.post(
      path.replace("DOMAIN", signedIn.domainId),
      { domain_name: "babbage.com", years: "1", type: "A", name: "@", content: "192.0.2.1", template_id: "web-host" },
      { csrf: null },
    );
    expect(page.status).toBe(403);
    expect(signedIn.server.outbox.events).toEqual([]);
  });
});

describe("csrfRefusal", () => {
  const base = { headers: {}, token: "t".repeat(43), sessionToken: "t".repeat(43), ownOrigin: "http://localhost:3001" };
  it.each([
    [{}, null],
    [{ headers: { "sec-fetch-site": "same-origin", origin: "null" } }, null],
    [{ headers: { origin: "http://localhost:3001" } }, null],
    [{ headers: { "sec-fetch-site": "none" } }, "Sec-Fetch-Site is none"],
    [{ headers: { "sec-fetch-site": "cross-site" } }, "Sec-Fetch-Site is cross-site"],
    [{ headers: { origin: "http://localhost:3002" } }, "Origin http://localhost:3002 is not http://localhost:3001"],
    [{ token: undefined }, "missing or wrong CSRF token"],
    [{ token: ["t".repeat(43)] }, "missing or wrong CSRF token"],
    [{ token: "t".repeat(42) }, "missing or wrong CSRF token"],
    [{ token: "u".repeat(43) }, "missing or wrong CSRF token"],
  ])("%j -> %s", (change, refusal) => {
    expect(csrfRefusal({ ...base, ...change })).toBe(refusal);
  });
});
