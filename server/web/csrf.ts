/**
 * CSRF protection of every state-changing request. The session cookie is SameSite=None (it must reach
 * the embed host inside a third-party iframe), so the browser sends it with a forged cross-site POST
 * too; three checks refuse such a request:
 * - a synchronizer token bound to the browser session, in every form, compared in constant time;
 * - Fetch Metadata: `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`;
 * - `Origin`, when it names one, must be the embed host's. Pages send `Referrer-Policy: no-referrer`,
 *   under which browsers send `Origin: null` with form posts, so `null` is left to the other checks.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export const CSRF_FIELD = "_csrf";

export interface CsrfInput {
  headers: IncomingHttpHeaders;
  /** The submitted form's token field. */
  token: unknown;
  /** The token of the session the cookie names. */
  sessionToken: string;
  /** The embed host's own origin (from its configured base URL). */
  ownOrigin: string;
}

/** Why the request is refused, or null when it passes every check. */
export function csrfRefusal({ headers, token, sessionToken, ownOrigin }: CsrfInput): string | null {
  const site = headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") return `Sec-Fetch-Site is ${site}`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== "null" && origin !== ownOrigin) return `Origin ${origin} is not ${ownOrigin}`;
  if (typeof token !== "string" || !sameToken(token, sessionToken)) return "missing or wrong CSRF token";
  return null;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
