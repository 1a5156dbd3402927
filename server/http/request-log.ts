/**
 * One structured log line per request, when its answer is done (or the client went away):
 * request id, method, route template, operationId, status, duration, partner id.
 *
 * What is never logged, because it holds secrets or personal data: headers (Authorization carries
 * the API key), bodies (login_url and its session token, webhook secrets, emails), the raw path
 * (user identifiers and domain names) and the query string. The route is the OpenAPI template of
 * the operation addressed, e.g. `/api/v1/users/{user_identifier}`, or null when the request
 * addresses no operation this deployment serves (the raw path of a typo may still carry ids).
 */
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { operationTable, type OperationId } from "../../generated/operations.js";
import { operationAt } from "./routes.js";

export interface RequestLogLine {
  requestId: string;
  method: string;
  route: string | null;
  operationId: OperationId | null;
  status: number;
  durationMs: number;
  partner: string | null;
  /** Present (true) when the connection closed before the answer was complete. */
  aborted?: true;
}

/** The operation a request addresses, if this deployment serves it; never the raw path. */
export function routeOf(method: string, path: string, served: ReadonlySet<OperationId>): { route: string | null; operationId: OperationId | null } {
  const operationId = operationAt(method, path);
  return operationId !== undefined && served.has(operationId) ? { route: operationTable[operationId].path, operationId } : { route: null, operationId: null };
}

/** `served`: the operations of this deployment (variants and environment), so a 404 for another variant's path names none. */
export function requestLog(logger: Logger, served: ReadonlySet<OperationId>): RequestHandler {
  // A silent logger (tests, benchmarks) should cost nothing per request.
  if (!logger.isLevelEnabled("info")) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: mounted middleware (app.use("/api", ...)) rewrites req.url while it runs.
    const { method, path } = req;
    res.once("close", () => {
      const line: RequestLogLine = {
        requestId: res.locals.requestId as string,
        method,
        ...routeOf(method, path, served),
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
        partner: (res.locals.partner as { id: string } | undefined)?.id ?? null,
      };
      if (!res.writableFinished) line.aborted = true;
      logger.info(line, "request");
    });
    next();
  };
}
