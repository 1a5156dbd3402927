/** The dashboard's defences: forged forms, login CSRF, headers, and one partner never reaching another's keys, logs, endpoints or members. */
import { describe, expect, it } from "vitest";
import { visibleText } from "../../support/dashboard-browser.js";
import { OWNER_B, useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();

describe("forged forms (CSRF)", () => {
  it("refuse a signed-in browser's POST without the session's token, with another token, or from another site", async () => {
    const browser = await server.signedIn();
    await browser.get("/keys");
    const token = browser.csrf!;
    expect((await browser.post("/keys", { name: "no token", _csrf: "" })).status).toBe(403);
    expect((await browser.post("/keys", { name: "wrong token", _csrf: `${token.slice(0, -1)}x` })).status).toBe(403);
    expect((await browser.post("/keys", { name: "cross site" }, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await browser.post("/keys", { name: "other origin" }, { Origin: "https://evil.test" })).status).toBe(403);
    const keys = await server.api.services.persistence.apiKeys.keysOfPartner("partner_a", "sandbox", server.api.clock.now());
    expect(keys).toEqual([]);
    // The same form with its token, from this site, passes.
    expect((await browser.post("/keys", { name: "real" }, { "Sec-Fetch-Site": "same-origin", Origin: server.dashboardUrl })).status).toBe(
      201,
    );
  });

  it("refuse another browser's token: tokens are bound to their session", async () => {
    const a = await server.signedIn();
    await a.get("/keys");
    const b = await server.signedIn(OWNER_B);
    await b.get("/keys");
    expect((await a.post("/keys", { name: "x", _csrf: b.csrf! })).status).toBe(403);
  });

  it("refuse a sign-in form without the browser's form cookie (login CSRF)", async () => {
    const attackerPage = server.browser();
    await attackerPage.get("/sign-in");
    const victim = server.browser();
    const forged = await victim.post("/sign-in", { email: OWNER_B.email, password: OWNER_B.password, _csrf: attackerPage.csrf! });
    expect(forged.status).toBe(403);
    expect(victim.cookies.has("__Host-dashboard_session")).toBe(false);
  });

  it("send pages that no one may frame, cache or sniff", async () => {
    const page = await (await server.signedIn()).get("/keys");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answer a form that is not UTF-8, or too large, with a 4xx page and change nothing", async () => {
    const browser = await server.signedIn();
    await browser.get("/keys");
    const latin1 = await browser.request("POST", "/keys", {
      body: new URLSearchParams({ _csrf: browser.csrf!, name: "x" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=latin1" },
    });
    expect(latin1.status).toBe(415);
    const large = await browser.post("/keys", { name: "x".repeat(40_000) });
    expect(large.status).toBe(413);
    expect(await server.api.services.persistence.apiKeys.keysOfPartner("partner_a", "sandbox", server.api.clock.now())).toEqual([]);
  });
});

describe("one partner never reaches another's", () => {
  it("keys, endpoints, deliveries, members or invitations, by any id", async () => {
    const a = await server.signedIn();
    await a.get("/keys");
    await a.post("/keys", { name: "A's key" });
    const keyId = /\/keys\/(key_[A-Za-z0-9]+)\/revoke/.exec((await a.get("/keys")).text)![1]!;
    await a.get("/webhooks/new");
    const endpoint = await a.post("/webhooks", { url: "http://127.0.0.1:9/hook", description: "A's endpoint" });
    const endpointId = /\/webhooks\/(whe_[A-Za-z0-9]+)\/edit/.exec(endpoint.text)![1]!;
    await a.post(`/webhooks/${endpointId}/test`);
    const deliveryId = /\/deliveries\/(whd_[A-Za-z0-9]+)\/redeliver/.exec((await a.get(`/webhooks/${endpointId}`)).text)![1]!;
    await a.get("/team");
    await a.post("/team/invitations", { email: "new@partner-a.test", role: "developer" });
    const team = await a.get("/team");
    const invitation = /\/team\/invitations\/([0-9a-f]{64})\/cancel/.exec(team.text)![1]!;
    const ownerA = (await server.api.services.persistence.accounts.findMemberByEmail("owner@partner-a.test"))!;

    const b = await server.signedIn(OWNER_B);
    await b.get("/keys");
    const attempts: Array<[string, string]> = [
      ["GET", `/keys/${keyId}/revoke`],
      ["POST", `/keys/${keyId}/revoke`],
      ["GET", `/keys/${keyId}/roll`],
      ["POST", `/keys/${keyId}/roll`],
      ["GET", `/webhooks/${endpointId}`],
      ["GET", `/webhooks/${endpointId}/edit`],
      ["POST", `/webhooks/${endpointId}/disable`],
      ["POST", `/webhooks/${endpointId}/test`],
      ["POST", `/webhooks/${endpointId}/rotate`],
      ["POST", `/webhooks/${endpointId}/delete`],
      ["POST", `/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`],
      ["POST", `/team/members/${ownerA.id}/remove`],
      ["POST", `/team/members/${ownerA.id}/role`],
      ["POST", `/team/invitations/${invitation}/cancel`],
    ];
    for (const [method, path] of attempts) {
      const fields: Record<string, string> = path.endsWith("/roll")
        ? { grace_seconds: "0" }
        : path.endsWith("/rotate")
          ? { previous_secret_valid_for: "0" }
          : path.endsWith("/role")
            ? { role: "developer" }
            : {};
      const answer = method === "GET" ? await b.get(path) : await b.post(path, fields);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    for (const page of ["/keys", "/webhooks", "/team", "/logs"]) {
      const text = visibleText((await b.get(page)).text);
      expect(text).not.toContain("A's key");
      expect(text).not.toContain("A's endpoint");
      expect(text).not.toContain("owner@partner-a.test");
      expect(text).not.toContain("new@partner-a.test");
    }
    // And A's things are all still there.
    expect(visibleText((await a.get("/keys")).text)).toContain("A's key");
    expect((await a.get(`/webhooks/${endpointId}`)).status).toBe(200);
    expect(visibleText((await a.get("/team")).text)).toContain("new@partner-a.test");
  });
});
