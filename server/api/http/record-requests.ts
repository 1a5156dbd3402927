/** Feeds the partner's request log (server/partners/request-history/) from the API's request pipeline. */
import type { RequestHandler } from "express";
import type { Environment } from "../../../generated/deployment.js";
import type { RequestRecorder } from "../../partners/request-history/request-recorder.js";
import { operationOf } from "./operation-match.js";

/** Records every request a key authenticated, once its answer is done; requests without a partner belong to no log. */
export function recordRequests(recorder: RequestRecorder, environment: Environment, now: () => Date): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { method } = req;
    res.once("close", () => {
      const partner = res.locals.partner as { id: string } | undefined;
      if (!partner) return;
      recorder.record({
        partnerId: partner.id,
        environment,
        at: now(),
        method,
        route: operationOf(res.locals)?.info.path ?? null,
        status: res.statusCode,
        requestId: res.locals.requestId as string,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
        keyName: res.locals.keyName as string,
      });
    });
    next();
  };
}
