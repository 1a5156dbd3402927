/** API keys made in the dashboard, as the API takes them, and the request log of what they did. */
import { describe, expect, it } from "vitest";
import { LAST_USED_RESOLUTION_MS } from "../../../server/partners/keys/api-keys.js";
import { visibleText, type DashboardBrowser } from "../../support/dashboard-browser.js";
import { OWNER_B, useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();

const KEY = /sk_sandbox_[A-Za-z0-9]{32}/;

async function createKey(browser: DashboardBrowser, name: string): Promise<{ key: string; text: string }> {
  await browser.get("/keys");
  const page = await browser.post("/keys", { name });
  expect(page.status).toBe(201);
  return { key: KEY.exec(page.text)![0], text: page.text };
}

const callApi = (key: string, path = "/api/v1/domains/tlds") =>
  fetch(`${server.api.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });

describe("API keys", () => {
  it("are made with a name, shown once, listed by name, prefix and last four, and taken by the API at once", async () => {
    const browser = await server.signedIn();
    const { key, text } = await createKey(browser, "Checkout service");
    expect(visibleText(text)).toContain("Copy it now");
    expect(text).toContain(`data-copy="new-key"`);
    const list = await browser.get("/keys");
    expect(list.text).not.toContain(key);
    expect(visibleText(list.text)).toContain(`Checkout service ${key.slice(0, 15)}…${key.slice(-4)}`);
    expect(visibleText(list.text)).toMatch(/Checkout service \S+ Full access None [\d-]+ [\d:]+ UTC Never Never/);
    expect((await callApi(key)).status).toBe(200);
    // Stored as a hash only.
    const stored = await server.api.services.persistence.apiKeys.keysOfPartner("partner_a", "sandbox", server.api.clock.now());
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored.find((row) => row.name === "Checkout service")).toMatchObject({ partnerId: "partner_a", lastFour: key.slice(-4) });
  });

  it("show when they were last used, to the minute", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Reporting");
    await callApi(key);
    const usedAt = server.api.clock.now().toISOString().slice(11, 19);
    await server.api.requests.flush();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(visibleText((await browser.get("/keys")).text)).toContain(`${usedAt} UTC`);
    server.api.clock.advance(LAST_USED_RESOLUTION_MS);
    await callApi(key);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(visibleText((await browser.get("/keys")).text)).toContain(`${server.api.clock.now().toISOString().slice(11, 19)} UTC`);
  });

  it("refuse a name that is empty or too long", async () => {
    const browser = await server.signedIn();
    await browser.get("/keys");
    for (const name of ["", "x".repeat(81)]) {
      const page = await browser.post("/keys", { name });
      expect(page.status).toBe(422);
      expect(page.text).toContain('aria-invalid="true"');
      expect(page.text).not.toMatch(KEY);
    }
  });

  it("are refused by the API from the request after their revocation", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Old integration");
    expect((await callApi(key)).status).toBe(200);
    const id = /href="\/keys\/(key_[A-Za-z0-9]+)\/revoke"/.exec((await browser.get("/keys")).text)![1]!;
    const confirm = await browser.get(`/keys/${id}/revoke`);
    expect(visibleText(confirm.text)).toContain("Revoke “Old integration”?");
    const revoked = await browser.post(`/keys/${id}/revoke`);
    expect(revoked.location).toBe("/keys?done=revoked");
    expect((await callApi(key)).status).toBe(401);
    expect(visibleText((await browser.get("/keys")).text)).not.toContain("Old integration");
  });

  it("roll: a new key of the same name, the old one kept for the grace period chosen and then refused", async () => {
    const browser = await server.signedIn();
    const { key: old } = await createKey(browser, "Web app");
    const id = /href="\/keys\/(key_[A-Za-z0-9]+)\/roll"/.exec((await browser.get("/keys")).text)![1]!;
    await browser.get(`/keys/${id}/roll`);
    const rolled = await browser.post(`/keys/${id}/roll`, { grace_seconds: "3600" });
    expect(rolled.status).toBe(201);
    const fresh = KEY.exec(rolled.text)![0];
    expect(fresh).not.toBe(old);
    expect((await callApi(old)).status).toBe(200);
    expect((await callApi(fresh)).status).toBe(200);
    server.api.clock.advance(3_600_000);
    expect((await callApi(old)).status).toBe(401);
    expect((await callApi(fresh)).status).toBe(200);
    // A grace period of at most 7 days: anything else is no choice the form offers.
    const second = /href="\/keys\/(key_[A-Za-z0-9]+)\/roll"/.exec((await browser.get("/keys")).text)![1]!;
    expect((await browser.post(`/keys/${second}/roll`, { grace_seconds: "999999999" })).status).toBe(422);
    expect((await callApi(fresh)).status).toBe(200);
    const now = await browser.post(`/keys/${second}/roll`, { grace_seconds: "0" });
    expect(now.status).toBe(201);
    expect((await callApi(fresh)).status).toBe(401);
  });
});

describe("the request log", () => {
  it("shows each request with time, method, route, status, request id, duration and the key's name; never a path's ids or a key", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Log reader");
    const ok = await callApi(key);
    const missing = await callApi(key, "/api/v1/users/secret_user_42");
    expect(missing.status).toBe(404);
    const page = await browser.get("/logs");
    const text = visibleText(page.text);
    expect(text).toContain(`GET /api/v1/domains/tlds 200`);
    expect(text).toContain(`GET /api/v1/users/{user_identifier} 404`);
    expect(text).toContain(ok.headers.get("x-request-id")!);
    expect(text).toContain("Log reader");
    expect(page.text).not.toContain("secret_user_42");
    expect(page.text).not.toContain(key);
    expect(text).toMatch(/\d+(\.\d)? ms/);
  });

  it("filters by status class, route and request id", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Filters");
    const ok = await callApi(key);
    await callApi(key, "/api/v1/users/nobody");
    const onlyErrors = visibleText((await browser.get("/logs?status=4")).text);
    expect(onlyErrors).toContain("404");
    expect(onlyErrors).not.toContain("/api/v1/domains/tlds 200");
    const byRoute = visibleText((await browser.get(`/logs?route=${encodeURIComponent("/api/v1/domains/tlds")}`)).text);
    expect(byRoute).toContain(ok.headers.get("x-request-id")!);
    expect(byRoute).not.toContain("{user_identifier} 404");
    const byId = visibleText((await browser.get(`/logs?request_id=${ok.headers.get("x-request-id")}`)).text);
    expect(byId).toContain("/api/v1/domains/tlds 200");
    expect(byId).not.toContain("404");
    // What no form offers matches nothing rather than everything.
    const bogus = await browser.get("/logs?status=9");
    expect(bogus.status).toBe(400);
    expect(visibleText(bogus.text)).toContain("No requests match");
  });

  it("pages through more requests than one page holds", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Pager");
    for (let i = 0; i < 55; i++) await callApi(key);
    const first = await browser.get("/logs");
    const older = /href="\/logs\?(before=[^"&]+)"/.exec(first.text)![1]!;
    expect((first.text.match(/<tr>\n<td>/g) ?? []).length).toBe(50);
    const second = await browser.get(`/logs?${older}`);
    expect((second.text.match(/<tr>\n<td>/g) ?? []).length).toBe(5);
  });

  it("links the older page by a place in the partner's own log, not by a number every partner shares", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Own pager");
    for (let i = 0; i < 51; i++) await callApi(key);
    const first = await browser.get("/logs");
    const older = new URLSearchParams(/href="\/logs\?(before=[^"]+)"/.exec(first.text)![1]!.replaceAll("&amp;", "&")).get("before")!;
    // A count of every partner's requests (the old link) would tell each partner the others' volume.
    expect(older).not.toMatch(/^\d+$/);
    const b = await server.signedIn(OWNER_B);
    const { key: keyOfB } = await createKey(b, "B's traffic");
    for (let i = 0; i < 5; i++) await callApi(keyOfB);
    const second = await browser.get(`/logs?before=${encodeURIComponent(older)}`);
    expect(visibleText(second.text)).not.toContain("B's traffic");
    expect((second.text.match(/<tr>\n<td>/g) ?? []).length).toBeGreaterThan(0);
    // A link the log did not give out answers nothing.
    const forged = await browser.get("/logs?before=12345");
    expect(forged.status).toBe(400);
  });

  it("counts the requests refused for the rate limits, one line per key, route and minute", async () => {
    const browser = await server.signedIn();
    const { key } = await createKey(browser, "Flooder");
    let refused = 0;
    for (let i = 0; i < 400 && refused < 30; i++) if ((await callApi(key, "/api/v1/domains/tlds")).status === 429) refused++;
    expect(refused).toBe(30);
    const text = visibleText((await browser.get("/logs?status=4")).text);
    const lines = text.split("\n").filter((line) => line.includes("429") && line.includes("Flooder"));
    expect(lines.join(" ")).toMatch(/429 × \d+ in this minute/);
    expect(text.match(/429 ×/g)?.length ?? 0).toBeLessThanOrEqual(2);
  });

  it("is each partner's own", async () => {
    const a = await server.signedIn();
    const { key } = await createKey(a, "A's key");
    const call = await callApi(key);
    const b = await server.signedIn(OWNER_B);
    const page = await b.get(`/logs?request_id=${call.headers.get("x-request-id")}`);
    expect(visibleText(page.text)).toContain("No requests match");
    expect(visibleText((await b.get("/logs")).text)).not.toContain("A's key");
  });
});
