/**
 * The embedded interface's session cookie. It must reach the embed host inside a partner's iframe,
 * where browsers block third-party cookies: a CHIPS partitioned cookie (`Partitioned`) is kept per
 * top-level site and allowed there, and requires `Secure` and `SameSite=None`. The `__Host-` prefix
 * pins it to this host (no Domain, Path=/). Browsers treat http://localhost and 127.0.0.1 as secure
 * contexts, so the same cookie works in local development.
 */
export { readCookie } from "../web/cookies.js";

export const SESSION_COOKIE = "__Host-embed_session";

const ATTRIBUTES = "Path=/; Secure; HttpOnly; SameSite=None; Partitioned";

export const sessionCookie = (value: string, maxAgeSeconds: number) =>
  `${SESSION_COOKIE}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${ATTRIBUTES}`;

export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`;
