/**
 * The embedded interface's entry: a login_url opens a page of the embed host with the framing and
 * privacy headers it promises, for 24 hours by the partner's clock; a forged token, an ended
 * session and a deleted user's session are refused and show nothing.
 */
import { randomBytes } from "node:crypto";
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { setUp } from "../fixtures.js";
import { expectAnswer, expectStatus } from "./expectations.js";
import { expectEmbedHeaders, expectEmbedStatus, expectRefusedPage, maxAgeOf, openEmbedPage, openLoginUrl } from "./embed-support.js";
import { uniqueUser } from "./users-support.js";

const DAY_SECONDS = 24 * 60 * 60;
/** Ended: 410; once the server's sweep removed the ended session, unknown: 404 for a token, 401 for a cookie. */
const ENDED_TOKEN = [404, 410];
const ENDED_COOKIE = [401, 410];
/** Login sessions, and browser sessions, a user keeps (spec: createUserSession). */
const SESSIONS_PER_USER = 50;

async function newLoginUrl(context: CheckContext, stem: string): Promise<{ user: string; loginUrl: string }> {
  const user = uniqueUser(context, stem);
  const session = await setUp(context.api, "createUserSession", { body: { user_identifier: user } });
  return { user, loginUrl: session.login_url };
}

const plusSeconds = (timestamp: string, seconds: number) =>
  new Date(Date.parse(timestamp) + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");

export default defineChecks([
  {
    id: "embed.login-url-opens-page",
    title:
      "a login_url answers 303 to a page of the same host without the token, setting an HttpOnly Secure SameSite=None session cookie of at most 24 hours; the page is HTML with the framing headers",
    needs: ["state"],
    async run(context) {
      const { loginUrl } = await newLoginUrl(context, "embed_open");
      expect(new URL(loginUrl).protocol).toMatch(/^https?:$/);
      const { page, cookie, answer } = await openLoginUrl(loginUrl, "opening a fresh login_url");
      const maxAge = maxAgeOf(answer);
      if (maxAge !== null && (maxAge > DAY_SECONDS || maxAge < DAY_SECONDS - 300))
        throw new Error(`the session cookie of a fresh login_url lasts ${maxAge} s, not the rest of its 24 hours`);
      const shown = await openEmbedPage(page, cookie);
      expectEmbedStatus(shown, [200], "the page the login_url leads to, with its cookie");
      expectEmbedHeaders(shown, "the page the login_url leads to");
      expect(shown.headers.get("content-type")).toMatch(/^text\/html/);
      expect(shown.headers.get("x-content-type-options")).toBe("nosniff");
      const withoutCookie = await openEmbedPage(page);
      expectRefusedPage(withoutCookie, [401], "the same page without the session cookie");
    },
  },
  {
    id: "embed.login-url-reopens",
    title: "the same login_url opens again within its 24 hours, each time a new browser session, the first still open",
    needs: ["state"],
    async run(context) {
      const { loginUrl } = await newLoginUrl(context, "embed_again");
      const first = await openLoginUrl(loginUrl, "opening a login_url");
      const second = await openLoginUrl(loginUrl, "opening the same login_url again");
      expect(second.cookie).not.toBe(first.cookie);
      expectEmbedStatus(await openEmbedPage(first.page, first.cookie), [200], "the first browser session after the second opened");
      expectEmbedStatus(await openEmbedPage(second.page, second.cookie), [200], "the second browser session");
    },
  },
  {
    id: "embed.forged-token-refused",
    title:
      "a login_url with a token never issued (random, or a real one altered) is 404 and a forged session cookie 401, each showing the session-ended page and starting no session",
    needs: ["state"],
    async run(context) {
      const { loginUrl } = await newLoginUrl(context, "embed_forged");
      const url = new URL(loginUrl);
      const token = url.pathname.split("/").pop()!;
      const forgeries = {
        "a random token": randomBytes(32).toString("base64url").replace(/[-_]/g, "x").slice(0, token.length),
        "the token with its last character changed": token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"),
        "the token cut short": token.slice(0, -1),
        "the token in other case": token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      };
      for (const [what, forged] of Object.entries(forgeries)) {
        const forgedUrl = new URL(loginUrl);
        forgedUrl.pathname = forgedUrl.pathname.replace(/[^/]+$/, forged);
        const refused = await openEmbedPage(forgedUrl.href);
        expectRefusedPage(refused, [404], `${what} in the login_url`);
        // A page that names no partner may be framed by no one: listing every partner's origins would tell who they are.
        expect({ [what]: refused.headers.get("content-security-policy") }).toEqual({
          [what]: expect.stringMatching(/frame-ancestors 'none'/),
        });
      }
      const { page, cookie } = await openLoginUrl(loginUrl, "opening the real login_url");
      const [name] = cookie.split("=");
      expectRefusedPage(await openEmbedPage(page, `${name}=${randomBytes(32).toString("hex")}`), [401], "a forged session cookie");
    },
  },
  {
    id: "embed.sessions-per-user-bounded",
    title:
      "a user keeps at most 50 login sessions and 50 browser sessions: one more of either ends the oldest, and only it; a browser session ends with the login session it came from",
    needs: ["state"],
    async run(context) {
      const { user, loginUrl: oldest } = await newLoginUrl(context, "embed_bounded");
      const openedFromOldest = await openLoginUrl(oldest, "opening the user's first login_url");
      const second = (await setUp(context.api, "createUserSession", { body: { user_identifier: user } })).login_url as string;
      const openings = [await openLoginUrl(second, "opening the user's second login_url")];
      for (let n = 3; n <= SESSIONS_PER_USER + 1; n++) await setUp(context.api, "createUserSession", { body: { user_identifier: user } });
      expectRefusedPage(await openEmbedPage(oldest), ENDED_TOKEN, `the first of ${SESSIONS_PER_USER + 1} login_urls of one user`);
      // The embedded interface the ended login_url opened ends with it.
      expectRefusedPage(
        await openEmbedPage(openedFromOldest.page, openedFromOldest.cookie),
        ENDED_COOKIE,
        "the browser session opened by the login_url that more login_urls ended",
      );
      openings.push(await openLoginUrl(second, `the second of ${SESSIONS_PER_USER + 1} login_urls of one user`));
      while (openings.length < SESSIONS_PER_USER + 1) openings.push(await openLoginUrl(second, "opening a login_url again"));
      const [first, next] = openings;
      expectRefusedPage(
        await openEmbedPage(first!.page, first!.cookie),
        ENDED_COOKIE,
        `the first of ${SESSIONS_PER_USER + 1} browser sessions of one user`,
      );
      expectEmbedStatus(
        await openEmbedPage(next!.page, next!.cookie),
        [200],
        `the second of ${SESSIONS_PER_USER + 1} browser sessions of one user`,
      );
    },
  },
  {
    id: "embed.session-ends-after-24-hours",
    title:
      "a login_url and its browser session stay open until 24 hours after issue by the sandbox clock and are refused from then on (410, or 404/401 once removed)",
    needs: ["state", "sandbox"],
    operations: ["getSandboxClock", "advanceSandboxClock"],
    // It moves the partner's sandbox clock a day on: run it after the checks whose data a day would age.
    destructive: true,
    async run(context) {
      const { api } = context;
      const before = (await setUp(api, "getSandboxClock", {})).now as string;
      const { loginUrl } = await newLoginUrl(context, "embed_day");
      const after = (await setUp(api, "getSandboxClock", {})).now as string;
      const opened = await openLoginUrl(loginUrl, "opening a fresh login_url");
      // The session was issued between the two readings: a minute before the first reading's day ends it is open for sure.
      expectAnswer(await api.call("advanceSandboxClock", { body: { to: plusSeconds(before, DAY_SECONDS - 60) } }), 200);
      const late = await openEmbedPage(loginUrl);
      expectEmbedStatus(late, [303], "the login_url a minute before its 24 hours end");
      expectEmbedStatus(await openEmbedPage(opened.page, opened.cookie), [200], "the browser session a minute before its 24 hours end");
      // The clock reads to the second, so the session may have been issued up to a second after `after` shows.
      expectAnswer(await api.call("advanceSandboxClock", { body: { to: plusSeconds(after, DAY_SECONDS + 1) } }), 200);
      expectRefusedPage(await openEmbedPage(loginUrl), ENDED_TOKEN, "the login_url after its 24 hours");
      expectRefusedPage(await openEmbedPage(opened.page, opened.cookie), ENDED_COOKIE, "the browser session after its 24 hours");
    },
  },
  {
    id: "embed.user-deletion-ends-sessions",
    title: "deleting a user ends its sessions at once: its login_url and its browser sessions are refused and show nothing",
    needs: ["state"],
    operations: ["deleteUser"],
    async run(context) {
      const { user, loginUrl } = await newLoginUrl(context, "embed_deleted");
      const opened = await openLoginUrl(loginUrl, "opening a fresh login_url");
      expectStatus(await context.api.call("deleteUser", { path: { user_identifier: user } }), 204);
      expectRefusedPage(await openEmbedPage(loginUrl), ENDED_TOKEN, "the deleted user's login_url");
      expectRefusedPage(await openEmbedPage(opened.page, opened.cookie), ENDED_COOKIE, "the deleted user's browser session");
    },
  },
]);
