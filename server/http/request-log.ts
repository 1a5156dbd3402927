/**
 * One structured log line per request, when its answer is finished: request id, method, route
 * template (never the raw path or query, which may carry names and ids), operation, status,
 * duration, partner. Headers and bodies are never logged: they hold keys, login tokens and secrets.
 */
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { operationTable } from "../../generated/operations.js";
import { operationAt } from "./routes.js";

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const operationId = operationAt(req.method, req.path);
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          route: operationId ? operationTable[operationId].path : null,
          operationId: operationId ?? null,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          partner: res.locals.partner?.id ?? null,
        },
        "request",
      );
    });
    next();
  };
}
