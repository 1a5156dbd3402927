/** Bearer API-key authentication for everything under /api/ (GET /health stays open). */
import type { RequestHandler } from "express";
import type { KeyRing } from "../auth/api-keys.js";
import { apiErrors } from "../errors.js";

const BEARER = /^Bearer ([A-Za-z0-9_]{1,200})$/;

/** Runs `middleware` for the API's paths (/api and below) only; GET /health and unknown paths pass by. */
export function underApi(middleware: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path === "/api" || req.path.startsWith("/api/") ? middleware(req, res, next) : next());
}

export function authenticate(keys: KeyRing): RequestHandler {
  return (req, res, next) => {
    const match = BEARER.exec(req.get("authorization") ?? "");
    const partner = match ? keys.partnerFor(match[1]!) : null;
    if (!partner) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="partner-api"');
      next(apiErrors.unauthorized());
      return;
    }
    res.locals.partner = partner;
    next();
  };
}
