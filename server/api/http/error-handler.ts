/** The one place errors become responses: the documented shape for the operation and status. */
import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";
import { apiErrors, errorBody } from "../../platform/errors.js";
import { retryAfterHeader, storeUnavailableIn } from "../../platform/store-unavailable.js";
import { operationOf } from "./operation-match.js";
import { requestErrorToApiError } from "./request-errors.js";

/** The rate-limit fields a 503 drops: the documented 503 carries none (spec/components/responses/ServiceUnavailable.yml). */
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"];

/**
 * Unexpected errors (the 500s) go to the logger at error level with the request id, the route
 * template and the error with its stack; like the request lines, never the raw path, headers or body
 * (createApp's logger passes `err` through server/api/http/loggable-error.ts). A database out of reach
 * is expected in operation (a restart, a failover): a 503 with Retry-After and one warn line
 * without a stack, wherever in the chain it was found (authentication, rate limits, a handler).
 */
export function errorHandler(logger: Logger, referenceUrl: string | null = null): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const operation = operationOf(res.locals);
    const route = operation?.info.path ?? null;
    const unavailable = storeUnavailableIn(error);
    const apiError = unavailable ? apiErrors.serviceUnavailable() : requestErrorToApiError(error, referenceUrl);
    if (unavailable) {
      logger.warn(
        {
          requestId: res.locals.requestId,
          method: req.method,
          route,
          operationId: operation?.id ?? null,
          reason: unavailable.message,
          retryAfter: unavailable.retryAfterSeconds,
        },
        `store unavailable on ${req.method} ${route ?? "an unknown route"}`,
      );
      for (const header of RATE_LIMIT_HEADERS) res.removeHeader(header);
      res.setHeader("Retry-After", retryAfterHeader(unavailable));
    } else if (!apiError) {
      logger.error(
        { requestId: res.locals.requestId, method: req.method, route, operationId: operation?.id ?? null, err: error },
        `unexpected error on ${req.method} ${route ?? "an unknown route"}`,
      );
    }
    const refusal = apiError ?? apiErrors.internal();
    const listShape = operation !== null && (operation.info.listErrorStatuses as readonly number[]).includes(refusal.status);
    // Refused before its body was read (no key, a rate limit, no such operation): waiting for the
    // rest of a body nobody will read would let a slow sender hold the connection.
    if (!req.complete) res.setHeader("Connection", "close");
    // A 412 names the current entity tag, so the caller can read and decide without another request's race.
    if (refusal.code === "precondition_failed") res.setHeader("ETag", String(refusal.details?.etag));
    res.status(refusal.status).json(errorBody(refusal, listShape));
  };
}
