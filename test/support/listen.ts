/** Loopback listeners on free ports for the tests. */
import type { AddressInfo } from "node:net";
import { createServer, type RequestListener, type Server } from "node:http";

export interface Listener {
  server: Server;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Gives the listener its app once the app can be built. */
  serve(app: RequestListener): void;
  close(): Promise<void>;
}

/**
 * Keeps idle connections open until the server closes. The tests' server and fetch share one event
 * loop: work that holds it (PGlite runs in this process) for longer than the keep-alive timeout lets
 * the server's timer close a pooled connection just as fetch writes the next request on it
 * (ECONNRESET). A server of the tests' own has no idle connections to reclaim.
 */
export function keepIdleConnections<T extends Server>(server: T): T {
  server.keepAliveTimeout = 0;
  return server;
}

/** A loopback listener on a free port, before its app exists (apps need each other's addresses). */
export async function listen(): Promise<Listener> {
  const server = keepIdleConnections(createServer());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    serve: (app) => void server.on("request", app),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An app served on a free loopback port. */
export async function serveOnLoopback(app: RequestListener): Promise<Listener> {
  const listener = await listen();
  listener.serve(app);
  return listener;
}

/** A port nothing listens on now, for a process that must be told its port (0 turns some listeners off). */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
