/**
 * How the HTML front doors answer an error, each with its own pages: another partner's or user's
 * thing reads as an unknown one (404); a refusal no form shows (a body too large, not a form) is
 * its 4xx; the database out of reach is 503 with Retry-After and a log line without a stack (it is
 * expected in operation); anything else is a 500 logged with its stack. Log lines name the route
 * matched, never the raw path (it carries tokens and users' ids).
 */
import type { ErrorRequestHandler, Request } from "express";
import { ApiError } from "../platform/errors.js";
import { retryAfterHeader, storeUnavailableIn } from "../platform/store-unavailable.js";

/** Each page is made for the request it answers (the embedded interface speaks the reader's language). */
export interface ErrorPages {
  notFound: (req: Request) => string;
  refused: (req: Request) => string;
  unavailable: (req: Request) => string;
  problem: (req: Request) => string;
}

/** The route a request matched, e.g. `/session/:token`, for log lines. */
export function routeOf(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route?.path;
  return typeof route === "string" ? route : "a path without a route";
}

export function errorPages(pages: ErrorPages, log: (message: string, error?: unknown) => void, name: string): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = (error as { status?: unknown }).status;
    // Another's thing reads as an unknown one; a missing asset is unknown too.
    if ((error instanceof ApiError && (error.status === 404 || error.status === 403)) || (!(error instanceof ApiError) && status === 404)) {
      res.status(404).type("html").send(pages.notFound(req));
      return;
    }
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).type("html").send(pages.refused(req));
      return;
    }
    const unavailable = storeUnavailableIn(error);
    if (unavailable) {
      log(`${name}: store unavailable on ${req.method} ${routeOf(req)}: ${unavailable.message}`);
      res.setHeader("Retry-After", retryAfterHeader(unavailable));
      res.status(503).type("html").send(pages.unavailable(req));
      return;
    }
    log(`${name}: unexpected error on ${req.method} ${routeOf(req)}`, error);
    res.status(500).type("html").send(pages.problem(req));
  };
}
