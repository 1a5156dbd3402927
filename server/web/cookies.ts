/**
 * The cookies of the HTML front doors: read from a request's Cookie header, set through Express's
 * `res.cookie`. Every one is `__Host-`-shaped (Path=/, Secure, no Domain) and HttpOnly: no script
 * reads them. Browsers treat http://localhost and 127.0.0.1 as secure contexts, so Secure cookies
 * work in local development too.
 */
import type { CookieOptions, Response } from "express";

/** One cookie of a front door: its name and how far it travels. */
export interface CookieKind {
  name: string;
  sameSite: "lax" | "strict" | "none";
  /** CHIPS: kept per top-level site, so it reaches a third-party iframe (requires SameSite=None). */
  partitioned?: boolean;
}

/** Reading a cookie of a request's Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

const optionsOf = (kind: CookieKind): CookieOptions => ({
  path: "/",
  secure: true,
  httpOnly: true,
  sameSite: kind.sameSite,
  ...(kind.partitioned && { partitioned: true }),
});

/**
 * Sets the cookie; without `maxAgeSeconds` it lasts as long as the browser session. Express adds an
 * Expires equal to Max-Age for old browsers; browsers that know Max-Age go by it.
 */
export function setCookie(res: Response, kind: CookieKind, value: string, maxAgeSeconds?: number): void {
  const maxAge = maxAgeSeconds === undefined ? {} : { maxAge: Math.max(0, Math.floor(maxAgeSeconds)) * 1000 };
  res.cookie(kind.name, value, { ...optionsOf(kind), ...maxAge });
}

/**
 * Ends the cookie: empty, Max-Age=0. Not `res.clearCookie`, which in Express 5 sends only an Expires
 * in 1970: Max-Age=0 does not depend on the browser's clock.
 */
export function clearCookie(res: Response, kind: CookieKind): void {
  setCookie(res, kind, "", 0);
}
