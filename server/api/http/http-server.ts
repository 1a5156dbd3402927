/**
 * The HTTP servers of every listener (API, embed host, demo page), with bounds on slow clients.
 * Node's defaults let a client take 60 s over its headers and 300 s over its request, checked
 * every 30 s: a few thousand half-sent bodies then hold as many connections for minutes.
 */
import { createServer, type RequestListener, type Server } from "node:http";

export interface SlowClientLimits {
  /** Time for the request line and headers. */
  headersTimeoutMs: number;
  /** Time for the whole request, body included (at most 1 MiB). */
  requestTimeoutMs: number;
  /** How often those are checked: the slack after a limit is passed. */
  checkIntervalMs: number;
}

export const SLOW_CLIENT_LIMITS: SlowClientLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, checkIntervalMs: 1_000 };

export function createHttpServer(app: RequestListener, limits: SlowClientLimits = SLOW_CLIENT_LIMITS): Server {
  return createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    app,
  );
}
