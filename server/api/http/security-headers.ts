/**
 * Security headers on every answer of the API (helmet), errors and the open health check included:
 * it is the first middleware of createApp. The API answers JSON only, so nothing may load in an
 * answer (`default-src 'none'`) or frame it (`frame-ancestors 'none'`, and `X-Frame-Options: DENY`
 * for browsers without CSP); `nosniff` keeps a browser from reading JSON as HTML or script.
 *
 * HSTS is sent on every answer, as helmet does by default (one year, subdomains), rather than only
 * "when the request came over TLS": production runs behind a TLS-terminating proxy, where the app
 * cannot tell reliably (req.secure needs the proxy trusted), and browsers ignore the header on a
 * plain-http answer (RFC 6797, 8.1), so on the sandbox's http://127.0.0.1 it does nothing. Behind
 * TLS it keeps a browser that once reached the API host from ever being downgraded to http.
 *
 * No CORS, on purpose: there is no CORS middleware, so no answer carries Access-Control-Allow-*
 * and a browser's preflight is refused (it carries no key, so it gets the 401 of any keyless
 * request; OPTIONS with a key gets 405 with Allow: no operation is documented with OPTIONS). API keys
 * are server-side secrets: a browser must never hold one, so no browser origin may call the API.
 * The embedded interface is another host (server/embed/) with its own headers.
 */
import type { RequestHandler } from "express";
import helmet from "helmet";
import { headersOf } from "../../web/security-headers.js";

const policy = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: "deny" },
  // No page of another origin may read or embed these answers, even by a plain <script> or <img>.
  crossOriginResourcePolicy: { policy: "same-origin" },
  referrerPolicy: { policy: "no-referrer" },
  // Default: max-age=31536000; includeSubDomains (see above why it is sent unconditionally).
  strictTransportSecurity: true,
});

/** Read once: nothing in the policy depends on the request (web/security-headers.ts says why). */
const HEADERS = headersOf(policy);

export const securityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  next();
};
