/**
 * Stops a server without cutting requests short: no new connections, idle keep-alive connections
 * closed at once, requests in flight allowed to finish within a bound, then whatever is left cut.
 *
 * Node answers a request in flight with `Connection: keep-alive` even after close(), and its
 * connection then sits idle until the keep-alive timeout, holding close() open. So while closing,
 * idle connections are closed again every few milliseconds, and answers to requests that still
 * arrive on an open connection say `Connection: close`.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

export const SHUTDOWN_GRACE_MS = 10_000;
const IDLE_SWEEP_MS = 25;

/**
 * Resolves true when every request finished within `graceMs`, false when some had to be cut
 * (`npm start` then exits 1, so whatever restarts it knows the stop was not clean).
 */
export function shutDownGracefully(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const lastAnswer = (_req: IncomingMessage, res: ServerResponse) => res.setHeader("Connection", "close");
    const finish = (complete: boolean) => {
      clearTimeout(deadline);
      clearInterval(sweep);
      server.off("request", lastAnswer);
      resolve(complete);
    };
    const deadline = setTimeout(() => {
      server.closeAllConnections();
      finish(false);
    }, graceMs);
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    // Before the app's listener, which may answer at once.
    server.prependListener("request", lastAnswer);
    // close() stops accepting; its callback runs once the last connection is gone.
    server.close(() => finish(true));
    server.closeIdleConnections();
  });
}
