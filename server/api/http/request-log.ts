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
import type { OperationId } from "../../../generated/operations.js";
import { operationOf } from "./operation-match.js";

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

/** The route is that of the operation matched once per request (server/api/http/operation-match.ts). */
export function requestLog(logger: Logger): RequestHandler {
  // A silent logger (tests, benchmarks) should cost nothing per request.
  if (!logger.isLevelEnabled("info")) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = performance.now();
    // Read now: the method a HEAD request was sent with, before it is handled as its GET.
    const { method } = req;
    // `on`, not `once`: a response closes once, and `once` wraps each listener in another closure.
    res.on("close", () => {
      const operation = operationOf(res.locals);
      const line: RequestLogLine = {
        requestId: res.locals.requestId as string,
        method,
        route: operation?.info.path ?? null,
        operationId: operation?.id ?? null,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 1e3) / 1e3,
        partner: (res.locals.partner as { id: string } | undefined)?.id ?? null,
      };
      if (!res.writableFinished) line.aborted = true;
      logger.info(line, "request");
    });
    next();
  };
}
