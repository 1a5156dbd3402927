/** The one place errors become responses: the documented shape for the operation and status. */
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { operationTable, type OperationId } from "../../generated/operations.js";
import { apiErrors, errorBody } from "../errors.js";
import { requestErrorToApiError } from "./request-errors.js";
import { routeOf } from "./request-log.js";
import { methodsAt, operationAt } from "./routes.js";

interface OpenApiRequestMetadata {
  openapi?: { schema?: { operationId?: string } };
}

export const unknownRoute: RequestHandler = (_req, _res, next) => next(requestErrorToApiError({ status: 404 }));

/**
 * Unexpected errors (the 500s) go to the logger at error level with the request id, the route
 * template and the error with its stack; like the request lines, never the raw path, headers or body
 * (createApp's logger passes `err` through server/http/loggable-error.ts).
 */
export function errorHandler(logger: Logger, served: ReadonlySet<OperationId>): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = requestErrorToApiError(error);
    if (!apiError) {
      const { route, operationId } = routeOf(req.method, req.path, served);
      logger.error({ requestId: res.locals.requestId, method: req.method, route, operationId, err: error }, `unexpected error on ${req.method} ${route ?? "an unknown route"}`);
    }
    const operationId = ((req as OpenApiRequestMetadata).openapi?.schema?.operationId as OperationId | undefined) ?? operationAt(req.method, req.path);
    let refusal = apiError ?? apiErrors.internal();
    // A body that is not JSON, or a path that does not decode, is refused before routing; when the
    // request addresses no operation at all, that it has no route is the answer that helps.
    let allow = (error as { headers?: Record<string, string> } | null)?.headers?.Allow;
    if (operationId === undefined && refusal.status === 400) {
      const methods = methodsAt(req.path);
      refusal = requestErrorToApiError({ status: methods.length > 0 ? 405 : 404 })!;
      if (methods.length > 0) allow = methods.join(", ");
    }
    const listShape = operationId !== undefined && (operationTable[operationId]?.listErrorStatuses as readonly number[] | undefined)?.includes(refusal.status) === true;
    // express-openapi-validator names the allowed methods of a 405 in its error's headers.
    if (refusal.status === 405 && allow) res.setHeader("Allow", allow);
    res.status(refusal.status).json(errorBody(refusal, listShape));
  };
}
