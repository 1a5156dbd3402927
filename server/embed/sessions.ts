/**
 * Sessions of the embedded interface. A login_url's token is exchanged, on its first and every later
 * opening within its 24 hours, for a browser session whose id travels in a cookie; the browser
 * session lives exactly as long as the login session it came from, by the partner's clock, and ends
 * with it (a deleted user's sessions are gone from the store; each browser session leaves only a
 * record that it ended, so its cookie gets the session-ended page and is cleared).
 */
import { createHash } from "node:crypto";
import type { Services } from "../context.js";
import { hashSessionToken } from "../handlers/users.js";
import { randomBase62 } from "../ids.js";
import type { EmbedSessionRow, SessionRow } from "../store/types.js";

export type SessionLookup = { state: "open"; session: SessionRow } | { state: "expired"; partnerId: string } | { state: "unknown" };

export type EmbedSessionLookup =
  | { state: "open"; session: EmbedSessionRow; expiresAt: Date }
  | { state: "expired"; partnerId: string }
  | { state: "unknown" };

/** Session tokens and browser-session ids are 43 base62 characters; anything else cannot be one, so it is not even hashed. */
const TOKEN = /^[A-Za-z0-9]{43}$/;
const ID_LENGTH = 43;

const hashEmbedSessionId = (id: string) => createHash("sha256").update(`embed:${id}`).digest("hex");

/** The login session of a login_url token; it ends 24 hours after it was issued, by the clock of its partner (a sandbox clock moves it). */
export function openSession(services: Services, token: string): SessionLookup {
  if (!TOKEN.test(token)) return { state: "unknown" };
  return loginSessionState(services, hashSessionToken(token));
}

function loginSessionState(services: Services, tokenHash: string): SessionLookup {
  const session = services.store.findSession(tokenHash);
  if (!session || !services.store.findUser(session.partnerId, session.userIdentifier)) return { state: "unknown" };
  const now = services.clocks.clockFor(session.partnerId).now();
  return now < session.expiresAt ? { state: "open", session } : { state: "expired", partnerId: session.partnerId };
}

/** Opens a browser session for an open login session; returns the cookie value (shown once, stored only hashed). */
export function startEmbedSession(services: Services, login: SessionRow): string {
  const id = randomBase62(ID_LENGTH);
  services.store.saveEmbedSession({
    idHash: hashEmbedSessionId(id),
    loginTokenHash: login.tokenHash,
    partnerId: login.partnerId,
    userIdentifier: login.userIdentifier,
    csrfToken: randomBase62(ID_LENGTH),
  });
  return id;
}

/** The browser session a cookie names, checked against its login session on every request. */
export function resumeEmbedSession(services: Services, id: string | undefined): EmbedSessionLookup {
  if (id === undefined || !TOKEN.test(id)) return { state: "unknown" };
  const idHash = hashEmbedSessionId(id);
  const session = services.store.findEmbedSession(idHash);
  if (!session) {
    // Its user was deleted: the session ended, as after its 24 hours, and the cookie is cleared.
    const ended = services.store.findEndedEmbedSession(idHash);
    return ended ? { state: "expired", partnerId: ended.partnerId } : { state: "unknown" };
  }
  const login = loginSessionState(services, session.loginTokenHash);
  if (login.state === "unknown") return { state: "expired", partnerId: session.partnerId };
  if (login.state === "expired") return login;
  return { state: "open", session, expiresAt: login.session.expiresAt };
}
