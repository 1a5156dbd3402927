/**
 * The scope check of restricted keys, right after authentication and before anything else reads
 * or writes: the operation's `x-required-scope` (from the generated table, never per handler)
 * against the key's scopes, and the key's client addresses against the TCP peer. A refusal is a
 * 403 before any handler runs; its decision is left for the request log either way.
 *
 * The peer address is the socket's: the API does not honour X-Forwarded-For (a client could
 * write any address there), so behind a proxy `client_ips` would compare the proxy's address.
 */
import type { RequestHandler } from "express";
import type { KeyAccess } from "../../domain/access/key-access.js";
import { clientAllowed, scopesAllow, type ScopeDecision } from "../../partners/keys/key-grant.js";
import { apiErrors } from "../../platform/errors.js";
import { operationOf } from "./operation-match.js";

export const keyAccessOf = (locals: Record<string, unknown>): KeyAccess | null => (locals.keyAccess as KeyAccess | undefined) ?? null;

export const scopeDecisionOf = (locals: Record<string, unknown>): ScopeDecision | null =>
  (locals.scopeDecision as ScopeDecision | undefined) ?? null;

export const authorizeScope: RequestHandler = (req, res, next) => {
  const access = keyAccessOf(res.locals);
  const operation = operationOf(res.locals);
  // Unauthenticated operations (GET /health) and requests addressing no operation have nothing to check.
  if (!access || !operation) {
    next();
    return;
  }
  const clientIps = access.restrictions?.clientIps;
  if (clientIps && !clientAllowed(clientIps, req.socket.remoteAddress)) {
    res.locals.scopeDecision = { outcome: "key_restricted", restriction: "client_ips" } satisfies ScopeDecision;
    next(apiErrors.keyRestricted("client_ips"));
    return;
  }
  const required = operation.info.requiredScope;
  if (!scopesAllow(access.scopes, required)) {
    res.locals.scopeDecision = { outcome: "insufficient_scope", requiredScope: required } satisfies ScopeDecision;
    next(apiErrors.insufficientScope(required, access.scopes));
    return;
  }
  res.locals.scopeDecision = { outcome: "allowed" } satisfies ScopeDecision;
  next();
};
