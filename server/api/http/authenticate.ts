/**
 * Bearer API-key authentication. Whether a request needs a key follows from the operation it
 * addresses (server/api/http/operation-match.ts): only operations the spec marks `security: []`
 * (GET /health) go without one; a request that addresses no operation needs one too.
 */
import type { RequestHandler } from "express";
import type { KeyRing } from "../../partners/keys/api-keys.js";
import type { KeyAccess } from "../../domain/access/key-access.js";
import { apiErrors } from "../../platform/errors.js";
import { operationOf } from "./operation-match.js";

const BEARER = /^Bearer ([A-Za-z0-9_]{1,200})$/;

export function authenticate(keys: KeyRing): RequestHandler {
  // Express 5 passes a rejection (the key store out of reach) to the error handler: a 503.
  return async (req, res, next) => {
    if (operationOf(res.locals)?.info.authenticated === false) {
      next();
      return;
    }
    const match = BEARER.exec(req.get("authorization") ?? "");
    const holder = match ? await keys.holderOf(match[1]!) : null;
    if (!holder) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="partner-api"');
      next(apiErrors.unauthorized());
      return;
    }
    res.locals.partner = holder.partner;
    res.locals.keyName = holder.keyName;
    res.locals.keyAccess = {
      keyId: holder.keyId,
      keyName: holder.keyName,
      scopes: holder.scopes,
      restrictions: holder.restrictions,
    } satisfies KeyAccess;
    next();
  };
}
