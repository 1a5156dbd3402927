/** The one place errors become responses: the documented shape for the operation and status. */
import type { ErrorRequestHandler, RequestHandler } from "express";
import { operationTable, type OperationId } from "../../generated/operations.js";
import { apiErrors, errorBody } from "../errors.js";
import { requestErrorToApiError } from "./request-errors.js";
import { operationAt } from "./routes.js";

interface OpenApiRequestMetadata {
  openapi?: { schema?: { operationId?: string } };
}

export const unknownRoute: RequestHandler = (_req, _res, next) => next(requestErrorToApiError({ status: 404 }));

export function errorHandler(log: (message: string, error: unknown) => void): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = requestErrorToApiError(error);
    if (!apiError) log(`unexpected error on ${req.method} ${req.path} (request ${res.locals.requestId})`, error);
    const refusal = apiError ?? apiErrors.internal();
    const operationId = ((req as OpenApiRequestMetadata).openapi?.schema?.operationId as OperationId | undefined) ?? operationAt(req.method, req.path);
    const listShape = operationId !== undefined && (operationTable[operationId]?.listErrorStatuses as readonly number[] | undefined)?.includes(refusal.status) === true;
    // express-openapi-validator names the allowed methods of a 405 in its error's headers.
    const allow = (error as { headers?: Record<string, string> } | null)?.headers?.Allow;
    if (refusal.status === 405 && allow) res.setHeader("Allow", allow);
    res.status(refusal.status).json(errorBody(refusal, listShape));
  };
}
