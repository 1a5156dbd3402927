/**
 * The kit's webhook receiver: a real HTTP listener that records each delivery by path, so every
 * check registers an endpoint of its own (`receiver.urlFor(name)`) and reads only its deliveries.
 * Against a remote target it listens on `--receiver-port` and is reached at `--receiver-url`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body; undefined when it is not JSON. */
  body: any;
  receivedAt: number;
  /** The status the receiver answered. */
  answered: number;
}

export interface WebhookReceiver {
  /** The URL to register for `name`: the public URL's or loopback's, with `/name` appended. */
  urlFor(name: string): string;
  deliveriesTo(name: string): Delivery[];
  /** Answers deliveries to `name` with `status` (default 200). */
  answerWith(name: string, status: number): void;
  /** Waits until `name` has received `count` deliveries, or fails after `timeoutMs` saying what arrived. */
  waitFor(name: string, count: number, timeoutMs: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { port?: number; publicUrl?: string | null } = {}): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const statuses = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0]!.replace(/^\//, "");
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const answered = statuses.get(path) ?? 200;
      deliveries.push({ path, headers: req.headers, rawBody, body, receivedAt: Date.now(), answered });
      res.writeHead(answered).end();
      waiters.forEach((wake) => wake());
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  const base = (options.publicUrl ?? `http://127.0.0.1:${port}`).replace(/\/$/, "");
  const deliveriesTo = (name: string) => deliveries.filter((delivery) => delivery.path === name);
  return {
    urlFor: (name) => `${base}/${name}`,
    deliveriesTo,
    answerWith: (name, status) => void statuses.set(name, status),
    waitFor: (name, count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (deliveriesTo(name).length < count) return;
          finish();
          resolve(deliveriesTo(name));
        };
        const timer = setTimeout(() => {
          finish();
          const got = deliveriesTo(name);
          reject(
            new Error(
              `waited ${timeoutMs / 1000} s for ${count} deliveries to ${base}/${name}, got ${got.length}` +
                (got.length ? `: ${got.map((d) => d.body?.type ?? "not JSON").join(", ")}` : ""),
            ),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
