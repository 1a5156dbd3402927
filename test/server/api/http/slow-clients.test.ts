/** Slow clients cannot hold connections: bounded request time, and no waiting for a body nobody reads. */
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../../server/assembly/app.js";
import { createHttpServer, SLOW_CLIENT_LIMITS, type SlowClientLimits } from "../../../../server/api/http/http-server.js";
import type { Server } from "node:http";

const KEY = "sk_sandbox_slowClientPartnerKey000000000000";

/** Sends `head` and part of a body, then reports what came back and whether the server closed the connection within `waitMs`. */
function halfSentRequest(
  port: number,
  head: string,
  partialBody: string,
  waitMs: number,
): Promise<{ response: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let response = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response, closedByServer: false });
    }, waitMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (response += chunk));
    socket.on("end", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closedByServer: true });
    });
    socket.write(head + partialBody);
  });
}

const post = (path: string, headers: string[]) =>
  [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 1000", ...headers, "", ""].join("\r\n");

/** The API on a listener with the given limits (short ones, so a test sees them pass). */
function serveApi(limits: SlowClientLimits): { port: () => number } {
  let server: Server;
  beforeAll(async () => {
    const { app } = createApp({
      environment: "sandbox",
      embedBaseUrl: "http://embed.test",
      partners: [{ partner: { id: "p", name: "P" }, keys: [KEY] }],
    });
    server = createHttpServer(app, limits);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: () => (server.address() as AddressInfo).port };
}

describe("requests refused before their body is read", () => {
  // The production limits: what closes the connection here is the refusal, not a timeout.
  const api = serveApi(SLOW_CLIENT_LIMITS);

  it("closes the connection after refusing an unauthenticated request, without waiting for the rest of its body", async () => {
    const { response, closedByServer } = await halfSentRequest(api.port(), post("/api/v1/users", []), '{"user_', 1_500);
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
    expect(response.toLowerCase()).toContain("connection: close");
    expect(closedByServer).toBe(true);
  });

  it("closes it too when the request addresses no operation", async () => {
    const { response, closedByServer } = await halfSentRequest(
      api.port(),
      post("/api/v1/nowhere", [`Authorization: Bearer ${KEY}`]),
      "{",
      1_500,
    );
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(closedByServer).toBe(true);
  });

  it("keeps the connection open after refusing a request that had no body", async () => {
    const head = ["GET /api/v1/nowhere HTTP/1.1", "Host: 127.0.0.1", `Authorization: Bearer ${KEY}`, "", ""].join("\r\n");
    const { response, closedByServer } = await halfSentRequest(api.port(), head, "", 300);
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(response.toLowerCase()).not.toContain("connection: close");
    expect(closedByServer).toBe(false);
  });
});

describe("slow clients", () => {
  const api = serveApi({ headersTimeoutMs: 400, requestTimeoutMs: 800, checkIntervalMs: 100 });
  const port = () => api.port();

  it("ends an authenticated request whose body never finishes once the request time is up", async () => {
    const { response, closedByServer } = await halfSentRequest(
      port(),
      post("/api/v1/users", [`Authorization: Bearer ${KEY}`]),
      '{"user_',
      3_000,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedByServer).toBe(true);
  });

  it("ends a request whose headers never finish once the header time is up", async () => {
    const { closedByServer } = await halfSentRequest(port(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "a", 3_000);
    expect(closedByServer).toBe(true);
  });
});
