/**
 * The dashboard's cookies. The session cookie is `__Host-` (this host only, Path=/, Secure),
 * HttpOnly and SameSite=Lax: the dashboard is never framed, so it needs no third-party cookie, and
 * a link from elsewhere still opens it signed in. Forms shown before sign-in carry a token that
 * must match the `__Host-dashboard_form` cookie (double submit), so no other site can sign a
 * browser in to an account of its choosing (login CSRF). Browsers treat http://127.0.0.1 and
 * localhost as secure, so the same cookies work in local development.
 */
import { randomBytes } from "node:crypto";

export { readCookie } from "../web/cookies.js";

export const SESSION_COOKIE = "__Host-dashboard_session";
export const FORM_COOKIE = "__Host-dashboard_form";

export const sessionCookie = (value: string, maxAgeSeconds: number) =>
  `${SESSION_COOKIE}=${value}; Max-Age=${Math.floor(maxAgeSeconds)}; Path=/; Secure; HttpOnly; SameSite=Lax`;

export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax`;

export const newFormToken = () => randomBytes(24).toString("base64url");

export const formCookie = (value: string) => `${FORM_COOKIE}=${value}; Path=/; Secure; HttpOnly; SameSite=Strict`;
