/**
 * Security headers for the API (helmet). The API answers JSON only: nothing may load in it or
 * frame it. HSTS is sent as helmet does by default: browsers ignore it over plain http (the
 * sandbox on localhost) and honour it behind TLS in production.
 */
import helmet from "helmet";

export const securityHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  // Keys are server-side secrets (see the spec): no browser page should read these answers.
  crossOriginResourcePolicy: { policy: "same-origin" },
  referrerPolicy: { policy: "no-referrer" },
});
