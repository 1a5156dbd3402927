/**
 * Binding a listener at start-up. Express 5's `app.listen(port, host, callback)` calls the callback
 * on an error as well, so the server announced itself and then failed on the address it did not
 * have; here a listener either listens or fails with one line that names the setting to change.
 */
import type { Server } from "node:net";

/** A failed bind, with the line `npm start` prints: `cannot listen on 127.0.0.1:3000 (PORT): address already in use`. */
export class ListenError extends Error {}

/** What the system's error codes mean for whoever runs the server. */
const REASONS: Record<string, string> = {
  EADDRINUSE: "address already in use",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "no such address on this machine",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
};

/** Errors that are about the host, not the port. */
const HOST_ERRORS = new Set(["EADDRNOTAVAIL", "ENOTFOUND", "EAI_AGAIN"]);

export interface ListenSettings {
  /** The setting that chose the port, e.g. PORT. */
  port: string;
  /** The setting that chose the host, if one did. */
  host?: string;
}

const address = (host: string, port: number) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`);

export function listenOn(server: Server, port: number, host: string, settings: ListenSettings): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      server.off("listening", listening);
      const code = error.code ?? "";
      const setting = HOST_ERRORS.has(code) && settings.host ? settings.host : settings.port;
      reject(new ListenError(`cannot listen on ${address(host, port)} (${setting}): ${REASONS[code] ?? (code || error.message)}`));
    };
    const listening = () => {
      server.off("error", failed);
      resolve();
    };
    server.once("error", failed);
    server.once("listening", listening);
    server.listen(port, host);
  });
}
