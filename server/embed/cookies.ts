/**
 * The embedded interface's session cookie (set through server/web/cookies.ts: Path=/, Secure,
 * HttpOnly). It must reach the embed host inside a partner's iframe, where browsers block
 * third-party cookies: a CHIPS partitioned cookie (`Partitioned`) is kept per top-level site and
 * allowed there, and requires `Secure` and `SameSite=None`.
 */
import type { CookieKind } from "../web/cookies.js";

export { clearCookie, readCookie, setCookie } from "../web/cookies.js";

export const SESSION_COOKIE: CookieKind = { name: "__Host-embed_session", sameSite: "none", partitioned: true };
