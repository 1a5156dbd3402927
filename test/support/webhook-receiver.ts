/** A real HTTP receiver on loopback that records what it is sent and answers as a test tells it. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; api_version: string; data: Record<string, unknown>; [key: string]: unknown };
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** The status the next answers carry (default 200). */
  answerWith(status: number): void;
  /** Holds every answer until `release` is called. */
  hold(): void;
  release(): void;
  /** Stops listening (connections are refused) until `start` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  let status = 200;
  let held: Array<() => void> | null = null;
  const received: ReceivedWebhook[] = [];
  const handle = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) });
      const answer = () => res.writeHead(status).end();
      if (held) held.push(answer);
      else answer();
    });
  });
  let server: Server = handle;
  const listen = (onPort: number) =>
    new Promise<number>((resolve) => {
      server = handle.listen(onPort, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
  const boundPort = await listen(port);
  return {
    url: `http://127.0.0.1:${boundPort}/webhooks`,
    port: boundPort,
    received,
    answerWith: (next) => {
      status = next;
    },
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      waiting.forEach((answer) => answer());
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: async () => {
      await listen(boundPort);
    },
  };
}
