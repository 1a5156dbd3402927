/**
 * The dashboard's cookies (set through server/web/cookies.ts: Path=/, Secure, HttpOnly). The session
 * cookie is SameSite=Lax: the dashboard is never framed, so it needs no third-party cookie, and a
 * link from elsewhere still opens it signed in. Forms shown before sign-in carry a token that must
 * match the form cookie (double submit), so no other site can sign a browser in to an account of
 * its choosing (login CSRF).
 */
import { randomBytes } from "node:crypto";
import type { CookieKind } from "../../web/cookies.js";

export { clearCookie, readCookie, setCookie } from "../../web/cookies.js";

export const SESSION_COOKIE: CookieKind = { name: "__Host-dashboard_session", sameSite: "lax" };
export const FORM_COOKIE: CookieKind = { name: "__Host-dashboard_form", sameSite: "strict" };

export const newFormToken = () => randomBytes(24).toString("base64url");
