/**
 * Users' sessions: login sessions, which the API opens (createUserSession) and the embedded interface
 * accepts, and the browser sessions opened from them; here, beside the partners' keys, so neither
 * front door imports the other (server/README.md). A login_url's token is exchanged, on its first
 * and every later opening within its 24 hours, for a browser session whose id travels in a cookie;
 * the browser session lives exactly as long as the login session it came from, by the partner's clock, and ends
 * with it (a deleted user's sessions are gone from the store; each browser session leaves only a
 * record that it ended, so its cookie gets the session-ended page and is cleared). Ended sessions
 * are removed by the periodic sweep (server/application/session-expiry.ts); a user holds at most
 * LOGIN_SESSIONS_PER_USER login sessions and BROWSER_SESSIONS_PER_USER browser sessions, so however
 * many a partner opens for one user, what is kept stays small.
 */
import { createHash, hash } from "node:crypto";
import { DAY } from "../../platform/clock.js";
import type { PartnerClocks } from "../sandbox/partner-clocks.js";
import type { UserStore } from "../users/user-store.js";
import { randomBase62 } from "../../platform/ids.js";
import type { EmbedSessionRow, SessionRow, SessionStore } from "./session-store.js";

/** What sessions use of a deployment's services: the sessions and users, and each partner's clock (a sandbox session ends by its partner's time). */
export interface SessionServices {
  store: SessionStore & UserStore;
  clocks: PartnerClocks;
}

export type SessionLookup = { state: "open"; session: SessionRow } | { state: "expired"; partnerId: string } | { state: "unknown" };

export type EmbedSessionLookup =
  | { state: "open"; session: EmbedSessionRow; expiresAt: Date; locale: string | null }
  | { state: "expired"; partnerId: string }
  | { state: "unknown" };

/** Session tokens and browser-session ids are 43 base62 characters; anything else cannot be one, so it is not even hashed. */
const TOKEN = /^[A-Za-z0-9]{43}$/;
const ID_LENGTH = 43;

const hashEmbedSessionId = (id: string) => createHash("sha256").update(`embed:${id}`).digest("hex");

/**
 * Login sessions kept per user; one more ends the oldest, with the browser sessions opened from it.
 * A partner asks a fresh login_url on each load of the page that frames the interface, so this is
 * how many of the user's page loads within 24 hours stay usable: far more than tabs and devices a
 * person keeps open, and a bound on what one user can make the store hold.
 */
export const LOGIN_SESSIONS_PER_USER = 50;
/** Browser sessions kept per user (each opening of a login_url is one); one more ends the oldest. */
export const BROWSER_SESSIONS_PER_USER = 50;

export const SESSION_LIFETIME = DAY;

export const hashSessionToken = (token: string) => hash("sha256", token, "hex");

/**
 * Opens a login session for the user at `now` (the partner's time): the token of its login_url
 * (shown once, stored only hashed) and when it ends. Beyond LOGIN_SESSIONS_PER_USER the user's
 * oldest sessions end.
 */
export async function openLoginSession(
  services: SessionServices,
  partnerId: string,
  userIdentifier: string,
  now: Date,
  locale: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const { store } = services;
  // 43 base62 characters: about 256 bits, far beyond guessing.
  const token = randomBase62(ID_LENGTH);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME);
  await store.saveSession({ tokenHash: hashSessionToken(token), partnerId, userIdentifier, expiresAt, locale });
  const sessions = await store.sessionsOfUser(partnerId, userIdentifier);
  for (const tokenHash of sessions.slice(0, Math.max(0, sessions.length - LOGIN_SESSIONS_PER_USER))) await store.deleteSession(tokenHash);
  return { token, expiresAt };
}

/** The login session of a login_url token; it ends 24 hours after it was issued, by the clock of its partner (a sandbox clock moves it). */
export async function openSession(services: SessionServices, token: string): Promise<SessionLookup> {
  if (!TOKEN.test(token)) return { state: "unknown" };
  return loginSessionState(services, hashSessionToken(token));
}

async function loginSessionState(services: SessionServices, tokenHash: string): Promise<SessionLookup> {
  const session = await services.store.findSession(tokenHash);
  if (!session || !(await services.store.findUser(session.partnerId, session.userIdentifier))) return { state: "unknown" };
  await services.clocks.refresh(session.partnerId);
  const now = services.clocks.clockFor(session.partnerId).now();
  return now < session.expiresAt ? { state: "open", session } : { state: "expired", partnerId: session.partnerId };
}

/** Opens a browser session for an open login session; returns the cookie value (shown once, stored only hashed). */
export async function startEmbedSession(services: SessionServices, login: SessionRow): Promise<string> {
  const { store } = services;
  const id = randomBase62(ID_LENGTH);
  await store.saveEmbedSession({
    idHash: hashEmbedSessionId(id),
    loginTokenHash: login.tokenHash,
    partnerId: login.partnerId,
    userIdentifier: login.userIdentifier,
    csrfToken: randomBase62(ID_LENGTH),
  });
  const sessions = await store.embedSessionsOfUser(login.partnerId, login.userIdentifier);
  for (const idHash of sessions.slice(0, Math.max(0, sessions.length - BROWSER_SESSIONS_PER_USER))) await store.deleteEmbedSession(idHash);
  return id;
}

/** The browser session a cookie names, checked against its login session on every request. */
export async function resumeEmbedSession(services: SessionServices, id: string | undefined): Promise<EmbedSessionLookup> {
  if (id === undefined || !TOKEN.test(id)) return { state: "unknown" };
  const idHash = hashEmbedSessionId(id);
  const session = await services.store.findEmbedSession(idHash);
  if (!session) {
    // Its user was deleted: the session ended, as after its 24 hours, and the cookie is cleared.
    const ended = await services.store.findEndedEmbedSession(idHash);
    return ended ? { state: "expired", partnerId: ended.partnerId } : { state: "unknown" };
  }
  const login = await loginSessionState(services, session.loginTokenHash);
  if (login.state === "unknown") return { state: "expired", partnerId: session.partnerId };
  if (login.state === "expired") return login;
  return { state: "open", session, expiresAt: login.session.expiresAt, locale: login.session.locale };
}
