/** The one place errors become responses: the documented shape for the operation and status. */
import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";
import { apiErrors, errorBody } from "../errors.js";
import { operationOf } from "./operation-match.js";
import { requestErrorToApiError } from "./request-errors.js";

/**
 * Unexpected errors (the 500s) go to the logger at error level with the request id, the route
 * template and the error with its stack; like the request lines, never the raw path, headers or body
 * (createApp's logger passes `err` through server/http/loggable-error.ts).
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const operation = operationOf(res.locals);
    const apiError = requestErrorToApiError(error);
    if (!apiError) {
      const route = operation?.info.path ?? null;
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
    res.status(refusal.status).json(errorBody(refusal, listShape));
  };
}
