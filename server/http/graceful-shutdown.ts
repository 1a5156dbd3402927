/**
 * Stops a server without cutting requests short: no new connections, idle keep-alive connections
 * closed at once, requests in flight allowed to finish within a bound, then whatever is left cut.
 */
import type { Server } from "node:http";

export const SHUTDOWN_GRACE_MS = 10_000;

/** Resolves true when every request finished in time, false when some had to be cut. */
export function shutDownGracefully(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve(true);
    });
    // Keep-alive connections without a request in flight would hold close() open until they time out.
    server.closeIdleConnections();
  });
}
