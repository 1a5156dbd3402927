/** Feeds the partner's request log (server/partners/request-history/) from the API's request pipeline. */
import type { RequestHandler } from "express";
import type { Environment } from "../../../generated/deployment.js";
import type { RequestRecord } from "../../partners/request-history/request-history-store.js";
import type { RequestRecorder } from "../../partners/request-history/request-recorder.js";
import { operationOf } from "./operation-match.js";
import { keyAccessOf, scopeDecisionOf } from "./authorize-scope.js";

/** Which key, and what its scopes and restrictions decided: refused before the handler, or by a restriction within it (a 403). */
function scopeRecord(locals: Record<string, unknown>, status: number): Pick<RequestRecord, "keyId" | "scopeDecision" | "scopeDetail"> {
  const access = keyAccessOf(locals);
  const decision = scopeDecisionOf(locals);
  const keyId = access?.keyId ?? null;
  if (decision?.outcome === "insufficient_scope")
    return { keyId, scopeDecision: "insufficient_scope", scopeDetail: decision.requiredScope };
  if (decision?.outcome === "key_restricted") return { keyId, scopeDecision: "key_restricted", scopeDetail: decision.restriction };
  if (access?.refusedBy && status === 403) return { keyId, scopeDecision: "key_restricted", scopeDetail: access.refusedBy };
  return { keyId, scopeDecision: "allowed", scopeDetail: null };
}

/**
 * Records every request a key authenticated, once its answer is done; requests without a partner
 * belong to no log. Authentication runs before this middleware (server/assembly/app.ts) and is the
 * only one that names the partner, so a request without one here has none at its end either, and
 * costs nothing more: no listener, no clock read.
 */
export function recordRequests(recorder: RequestRecorder, environment: Environment, now: () => Date): RequestHandler {
  return (req, res, next) => {
    const partner = res.locals.partner as { id: string } | undefined;
    if (partner) {
      const started = performance.now();
      const { method } = req;
      // `on`, not `once`: a response closes once, and `once` wraps each listener in another closure.
      res.on("close", () => {
        recorder.record({
          partnerId: partner.id,
          environment,
          at: now(),
          method,
          route: operationOf(res.locals)?.info.path ?? null,
          status: res.statusCode,
          requestId: res.locals.requestId as string,
          durationMs: Math.round((performance.now() - started) * 1e3) / 1e3,
          keyName: res.locals.keyName as string,
          ...scopeRecord(res.locals, res.statusCode),
        });
      });
    }
    next();
  };
}
