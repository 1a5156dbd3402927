/**
 * Enforces the rate limits for authenticated requests and reports them on every response: the
 * X-RateLimit-* headers of the description, plus the IETF RateLimit and RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers) that generic HTTP clients understand.
 */
import type { RequestHandler } from "express";
import type { Partner } from "../../partners/keys/api-keys.js";
import type { Services } from "../../application/context.js";
import { apiErrors } from "../../platform/errors.js";
import { rateLimitScope } from "../../platform/rate-limits/policy.js";
import type { RateLimiter } from "../../platform/rate-limits/rate-limiter.js";
import type { WindowCounter } from "../../platform/rate-limits/window-store.js";
import type { Admission } from "../../partners/keys/request-admission.js";
import { keyAccessOf } from "./authorize-scope.js";
import { operationOf } from "./operation-match.js";

/** The policy of a set of buckets, built once per set: the sets are the operations' and few. */
const policyHeaders = new WeakMap<readonly unknown[], string>();
function policyHeader(buckets: ReadonlyArray<{ name: string; limit: number; window: number }>): string {
  const key = buckets as readonly unknown[];
  let header = policyHeaders.get(key);
  if (!header)
    policyHeaders.set(key, (header = buckets.map((bucket) => `"${bucket.name}";q=${bucket.limit};w=${bucket.window}`).join(", ")));
  return header;
}

export function rateLimit(limiter: RateLimiter, services: Services): RequestHandler {
  return async (_req, res, next) => {
    const partner = res.locals.partner as Partner | undefined;
    // Operations without authentication (GET /health) are not counted: there is no partner to count for.
    if (!partner) {
      next();
      return;
    }
    // Windows run on the real clock, never the partner's: an advance that moved them would free a
    // window's worth of requests each time (docs/sandbox.md, "Rate limits and the clock").
    const now = services.clocks.base.now().getTime();
    const scope = rateLimitScope(services.deployment.environment, partner.id);
    const { admission } = services.persistence;
    let admitted: Admission | undefined;
    const admit =
      admission &&
      (async (counters: readonly WindowCounter[]) => {
        const keyId = keyAccessOf(res.locals)?.keyId ?? null;
        const clockOf = services.deployment.environment === "sandbox" ? partner.id : null;
        admitted = await admission.admit(counters, { keyId, clockOf, now: new Date(now) });
        return admitted;
      });
    // Without an admission, the partner's clock as every instance sees it is read on its own.
    if (!admit) await services.clocks.refresh(partner.id);
    // Requests that address no operation are answered too, so they count against the overall limits.
    const decision = await limiter.consume(scope, operationOf(res.locals)?.id, now, admit);
    if (admitted && !admitted.keyAccepted) {
      // Revoked or expired on another instance, before this one heard of it: refused as authentication refuses.
      res.setHeader("WWW-Authenticate", 'Bearer realm="partner-api"');
      next(apiErrors.unauthorized());
      return;
    }
    // The partner's clock as every instance sees it, read by the rest of the request.
    if (admitted) services.clocks.observe(partner.id, admitted.clockOffsetMs);
    const { bucket, remaining, reset } = decision.reported;
    res.setHeader("X-RateLimit-Limit", bucket.limit);
    res.setHeader("X-RateLimit-Remaining", remaining);
    res.setHeader("X-RateLimit-Reset", reset);
    res.setHeader("RateLimit-Policy", policyHeader(decision.applicable));
    res.setHeader("RateLimit", `"${bucket.name}";r=${remaining};t=${Math.max(0, Math.ceil(reset - now / 1000))}`);
    if (decision.allowed) {
      next();
      return;
    }
    res.setHeader("Retry-After", decision.retryAfter);
    next(apiErrors.rateLimitExceeded(bucket.limit, bucket.window, decision.retryAfter));
  };
}
