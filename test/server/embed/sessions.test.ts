/** GET login_url: the token exchange, the session cookie, its 24 hours, and its end. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { scaled } from "../../../scripts/lib/deadlines.js";
import { DAY } from "../../../server/platform/clock.js";
import { BROWSER_SESSIONS_PER_USER, hashSessionToken, LOGIN_SESSIONS_PER_USER } from "../../../server/domain/sessions/user-sessions.js";
import { removeEndedSessions } from "../../../server/application/session-expiry.js";
import { startDueChangeSweep } from "../../../server/application/sweep.js";
import { startEmbedTestServer, type EmbedTestServer } from "../../support/embed-test-server.js";
import { everythingStored } from "../../support/stored-text.js";
import { EmbedBrowser, textOf } from "./support/embed-browser.js";

let s: EmbedTestServer;
beforeAll(async () => {
  s = await startEmbedTestServer({ embedOrigins: ["https://app.partner-a.example"] });
});
beforeEach(() => s.reset());
afterAll(() => s.close());

const advance = (seconds: number) => s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds } });
const tokenOf = (loginUrl: string) => loginUrl.split("/").pop()!;
const storedSessions = async (partnerId = "partner_a", userIdentifier = "u1") => ({
  login: (await s.services.store.sessionsOfUser(partnerId, userIdentifier)).length,
  browser: (await s.services.store.embedSessionsOfUser(partnerId, userIdentifier)).length,
});

describe("GET /session/{token} (login_url)", () => {
  it("exchanges the token for a session cookie and redirects to an address without the token", async () => {
    const loginUrl = await s.loginUrl("u1");
    const browser = new EmbedBrowser(s.embedUrl);
    const page = await browser.open(loginUrl);
    expect(page.redirects).toHaveLength(1);
    const [exchange] = page.redirects;
    expect(exchange!.status).toBe(303);
    expect(exchange!.location).toBe("/domains");
    expect(exchange!.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${s.embedUrl}/domains`);
    expect(page.url).not.toContain(loginUrl.split("/").pop());
    expect(textOf(page.html)).toContain("Signed in as u1");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
  });

  it("sets a partitioned, Secure, SameSite=None, HttpOnly __Host- cookie that lasts as long as the login session", async () => {
    const loginUrl = await s.loginUrl("u1");
    const response = await fetch(loginUrl, { redirect: "manual" });
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__Host-embed_session=[A-Za-z0-9]{43}; /);
    const attributes = cookie.split("; ").slice(1);
    expect(attributes).toEqual(expect.arrayContaining(["Max-Age=86400", "Path=/", "Secure", "HttpOnly", "SameSite=None", "Partitioned"]));
    expect(attributes.some((attribute) => attribute.startsWith("Domain"))).toBe(false);
  });

  it("stores neither the token nor the cookie value, only hashes", async () => {
    const loginUrl = await s.loginUrl("u1");
    const token = loginUrl.split("/").pop()!;
    const cookie = (await fetch(loginUrl, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!;
    const stored = await everythingStored(s.services.persistence);
    expect(stored).toContain(hashSessionToken(token));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(cookie);
  });

  it("reopens with the same login_url within 24 hours on the partner's clock (a new session each time)", async () => {
    const loginUrl = await s.loginUrl("u1");
    const first = new EmbedBrowser(s.embedUrl);
    expect((await first.open(loginUrl)).status).toBe(200);
    await advance(DAY / 1000 - 1);
    const again = new EmbedBrowser(s.embedUrl);
    const page = await again.open(loginUrl);
    expect(page.status).toBe(200);
    expect(again.cookie).not.toBe(first.cookie);
    // Its cookie lasts only the second left of the login session.
    expect(page.redirects[0]!.headers.get("set-cookie")).toContain("Max-Age=1;");
  });

  it("shows the session-expired page (410) once 24 hours have passed, and never the user's data", async () => {
    const loginUrl = await s.loginUrl("u1");
    await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    await advance(DAY / 1000);
    const page = await new EmbedBrowser(s.embedUrl).open(loginUrl);
    expect(page.status).toBe(410);
    expect(page.redirects).toEqual([]);
    expect(textOf(page.html)).toContain("This session has expired");
    expect(textOf(page.html)).toContain("Reopen it from the application");
    expect(page.html).not.toContain("adalovelace.com");
    expect(page.html).not.toContain("u1");
    expect(page.headers.get("set-cookie")).toBeNull();
  });

  it("ends an open browser session at the login session's end, and clears its cookie", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    await advance(DAY / 1000);
    const page = await browser.get("/domains");
    expect(page.status).toBe(410);
    expect(textOf(page.html)).toContain("This session has expired");
    expect(browser.cookie).toBeNull();
  });

  it("another partner's clock does not end the session", async () => {
    const loginUrl = await s.loginUrl("u1");
    await s.otherPartner.POST("/api/v1/sandbox/clock/advance", { body: { seconds: (2 * DAY) / 1000 } });
    expect((await new EmbedBrowser(s.embedUrl).open(loginUrl)).status).toBe(200);
  });

  it.each([
    ["a forged token of the right shape", "A".repeat(43)],
    ["a token one character short", "A".repeat(42)],
    ["path traversal", "%2E%2E%2Fdomains"],
    ["an API key", "sk_sandbox_partnerAkey000000000000000000"],
  ])("refuses %s with 404 and the same session-expired page, setting no cookie", async (_case, token) => {
    const response = await fetch(`${s.embedUrl}/session/${token}`, { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(textOf(await response.text())).toContain("This session has expired");
  });
});

describe("pages without an open session", () => {
  it.each(["/domains", "/search?q=example.com", "/", "/domains/dom_x"])(
    "GET %s without a cookie answers 401 with the session-expired page",
    async (path) => {
      const page = await new EmbedBrowser(s.embedUrl).get(path);
      expect(page.status).toBe(401);
      expect(textOf(page.html)).toContain("This session has expired");
    },
  );

  it("a forged cookie opens nothing", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    browser.cookie = `__Host-embed_session=${"B".repeat(43)}`;
    expect((await browser.get("/domains")).status).toBe(401);
  });

  it("the login token is not a cookie value: the cookie is a separate secret", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    browser.cookie = `__Host-embed_session=${(await s.loginUrl("u1")).split("/").pop()}`;
    expect((await browser.get("/domains")).status).toBe(401);
  });
});

describe("DELETE /api/v1/users/{user_identifier}", () => {
  it("ends the user's open browser sessions and its login_url", async () => {
    const loginUrl = await s.loginUrl("u1");
    const browser = new EmbedBrowser(s.embedUrl);
    expect((await browser.open(loginUrl)).status).toBe(200);
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    const page = await browser.get("/domains");
    expect([401, 410]).toContain(page.status);
    expect(textOf(page.html)).toContain("This session has expired");
    expect((await new EmbedBrowser(s.embedUrl).open(loginUrl)).status).toBe(404);
  });

  it("answers a deleted user's browser session with the 410 session-expired page and clears its cookie, as after 24 hours", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    const page = await browser.get("/domains");
    expect(page.status).toBe(410);
    expect(textOf(page.html)).toContain("This session has expired");
    expect(page.headers.get("set-cookie")).toMatch(/^__Host-embed_session=; Max-Age=0; /);
    expect(browser.cookie).toBeNull();
  });

  it("keeps nothing of the deleted user to tell its sessions apart: only the hash of each browser session and its partner", async () => {
    // A name no random id can hold (they are base62): the request log keeps request ids, which may contain "u1".
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("departed-user"));
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "departed-user" } } });
    expect(await everythingStored(s.services.persistence, { exceptEventHistory: true })).not.toContain("departed-user");
    // The event history keeps the partner's own notice of the deletion, which names the user as the partner does, for its 30 days.
    const history = await s.services.persistence.events.eventPage("partner_a", {
      types: null,
      createdAfter: null,
      createdBefore: null,
      after: null,
      limit: 100,
    });
    expect(history.filter((event) => JSON.stringify(event).includes("departed-user")).map((event) => event.type)).toEqual(["user.deleted"]);
  });

  it("forgets even that once the deleted user's login session would have ended, by the partner's clock", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    const cookie = browser.cookie;
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    await advance(DAY / 1000 - 1);
    await removeEndedSessions(s.services);
    expect((await browser.get("/domains")).status).toBe(410);
    browser.cookie = cookie;
    await advance(1);
    await removeEndedSessions(s.services);
    // Nothing is kept any more: the cookie reads as unknown.
    expect((await browser.get("/domains")).status).toBe(401);
  });

  it("a user created again with the same identifier does not inherit the old sessions", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    await s.loginUrl("u1");
    expect((await browser.get("/domains")).status).not.toBe(200);
  });
});

describe("ended sessions", () => {
  it("are removed 24 hours after issue by the partner's clock, browser sessions with their login session; another partner's stay", async () => {
    const loginUrl = await s.loginUrl("u1");
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(loginUrl);
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    expect(await storedSessions()).toEqual({ login: 1, browser: 1 });
    await advance(DAY / 1000);
    expect(await removeEndedSessions(s.services)).toBe(1);
    expect(await storedSessions()).toEqual({ login: 0, browser: 0 });
    expect(await s.services.store.findSession(hashSessionToken(tokenOf(loginUrl)))).toBeUndefined();
    expect(await storedSessions("partner_b")).toEqual({ login: 1, browser: 0 });
    // Gone from the store, the token and the cookie read as unknown: the same session-ended page.
    expect((await new EmbedBrowser(s.embedUrl).open(loginUrl)).status).toBe(404);
    expect((await browser.get("/domains")).status).toBe(401);
  });

  it("stay until their last second", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    await advance(DAY / 1000 - 1);
    expect(await removeEndedSessions(s.services)).toBe(0);
    expect(await storedSessions()).toEqual({ login: 1, browser: 1 });
    expect((await browser.get("/domains")).status).toBe(200);
  });

  it("are removed by the server's periodic sweep as time passes on its own, without any request", async () => {
    await new EmbedBrowser(s.embedUrl).open(await s.loginUrl("u1"));
    const stop = startDueChangeSweep(
      s.services,
      (error) => {
        throw error;
      },
      5,
    );
    try {
      s.clock.advance(DAY);
      await vi.waitFor(async () => expect(await storedSessions()).toEqual({ login: 0, browser: 0 }), {
        timeout: scaled(1_000),
        interval: 5,
      });
    } finally {
      stop();
    }
  });
});

describe("the sessions of one user", () => {
  it(`are at most ${LOGIN_SESSIONS_PER_USER} login sessions: one more ends the oldest, its login_url and the browser sessions opened from it`, async () => {
    const oldest = await s.loginUrl("u1");
    const oldestBrowser = new EmbedBrowser(s.embedUrl);
    expect((await oldestBrowser.open(oldest)).status).toBe(200);
    const second = await s.loginUrl("u1");
    for (let i = 2; i < LOGIN_SESSIONS_PER_USER; i++) await s.loginUrl("u1");
    expect(await storedSessions()).toEqual({ login: LOGIN_SESSIONS_PER_USER, browser: 1 });
    const newest = await s.loginUrl("u1");
    expect(await storedSessions()).toEqual({ login: LOGIN_SESSIONS_PER_USER, browser: 0 });
    expect((await new EmbedBrowser(s.embedUrl).open(oldest)).status).toBe(404);
    expect((await oldestBrowser.get("/domains")).status).not.toBe(200);
    expect((await new EmbedBrowser(s.embedUrl).open(second)).status).toBe(200);
    expect((await new EmbedBrowser(s.embedUrl).open(newest)).status).toBe(200);
  });

  it(`are at most ${BROWSER_SESSIONS_PER_USER} browser sessions: opening one more ends the oldest`, async () => {
    const loginUrl = await s.loginUrl("u1");
    const browsers = Array.from({ length: BROWSER_SESSIONS_PER_USER + 1 }, () => new EmbedBrowser(s.embedUrl));
    for (const browser of browsers) expect((await browser.open(loginUrl)).status).toBe(200);
    expect(await storedSessions()).toEqual({ login: 1, browser: BROWSER_SESSIONS_PER_USER });
    expect((await browsers[0]!.get("/domains")).status).toBe(401);
    expect((await browsers[1]!.get("/domains")).status).toBe(200);
    expect((await browsers.at(-1)!.get("/domains")).status).toBe(200);
  });

  it("count per user: another user's sessions are not ended by them", async () => {
    const other = new EmbedBrowser(s.embedUrl);
    await other.open(await s.loginUrl("u2"));
    for (let i = 0; i <= LOGIN_SESSIONS_PER_USER; i++) await s.loginUrl("u1");
    expect(await storedSessions("partner_a", "u2")).toEqual({ login: 1, browser: 1 });
    expect((await other.get("/domains")).status).toBe(200);
  });
});

describe("the embed host's error lines", () => {
  it("name the route of an unexpected error, never the raw path with its login token", async () => {
    const loginUrl = await s.loginUrl("u1");
    const token = loginUrl.split("/").pop()!;
    s.services.store = {} as never;
    const response = await fetch(loginUrl, { redirect: "manual" });
    expect(response.status).toBe(500);
    expect(s.logs).toEqual([expect.stringMatching(/^embed: unexpected error on GET \/session\/:token TypeError: /)]);
    expect(s.logs.join("\n")).not.toContain(token);
  });
});
