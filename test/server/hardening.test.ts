/** Security headers, no CORS, structured logs without secrets, graceful shutdown. */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createApp } from "../../server/app.js";
import { shutDownGracefully } from "../../server/http/graceful-shutdown.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

const s = useTestServer();
const send = (path: string, init: RequestInit = {}) => fetch(`${s.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, ...init.headers } });

describe("security headers", () => {
  it.each([
    ["a success", "/api/v1/domains/tlds"],
    ["an error", "/api/v1/users/nobody"],
    ["the open health check", "/health"],
  ])("are on %s: nothing may load in or frame a JSON answer", async (_name, path) => {
    const response = await send(path);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("etag")).toBeNull();
  });
});

describe("no CORS: API keys are server-side secrets, so no browser origin is ever allowed to call the API", () => {
  it("sends no Access-Control-* header, even to a request with an Origin", async () => {
    const response = await send("/api/v1/domains/tlds", { headers: { Origin: "https://partner.example" } });
    expect(response.status).toBe(200);
    expect([...response.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("refuses a preflight with a documented error and no permission", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/users`, { method: "OPTIONS", headers: { Origin: "https://partner.example", "Access-Control-Request-Method": "POST" } });
    expect([401, 404, 405]).toContain(response.status);
    expect(await response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect([...response.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });
});

describe("structured logs", () => {
  const lines: Array<Record<string, unknown>> = [];
  let raw = "";
  let server: Server;
  let baseUrl: string;
  const KEY = "sk_sandbox_loggingPartnerKey0000000000000";
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw += chunk.toString();
        chunk.toString().split("\n").filter(Boolean).forEach((line) => lines.push(JSON.parse(line)));
        done();
      },
    });
    const { app } = createApp({
      environment: "sandbox",
      embedBaseUrl: "http://embed.test",
      partners: [{ partner: { id: "logged", name: "Logged" }, keys: [KEY] }],
      logger: pino({ level: "info" }, destination),
      handlers: { listTlds: () => { throw new Error("boom in a handler"); } },
    });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("log one line per request with its id, route template, operation, status, duration and partner; never a key, token or body", async () => {
    const session = await fetch(`${baseUrl}/api/v1/users`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify({ user_identifier: "secret_user", email: "ada@example.com" }) });
    const { login_url: loginUrl } = (await session.json()) as { login_url: string };
    const token = loginUrl.split("/").pop()!;
    await fetch(`${baseUrl}/api/v1/users/secret_user?x=1`, { headers: { Authorization: `Bearer ${KEY}` } });
    await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: "Bearer sk_sandbox_wrongwrongwrong" } });
    const crashed = await fetch(`${baseUrl}/api/v1/domains/tlds`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(crashed.status).toBe(500);

    const requests = lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.method, line.route, line.operationId, line.status, line.partner])).toEqual([
      ["POST", "/api/v1/users", "createUserSession", 201, "logged"],
      ["GET", "/api/v1/users/{user_identifier}", "getUser", 400, "logged"],
      ["GET", "/api/v1/health", "getApiHealth", 401, null],
      ["GET", "/api/v1/domains/tlds", "listTlds", 500, "logged"],
    ]);
    for (const line of requests) {
      expect(line.requestId).toMatch(/^req_/);
      expect(typeof line.durationMs).toBe("number");
    }
    const error = lines.find((line) => line.level === 50)!;
    expect(error.msg).toMatch(/unexpected error on GET \/api\/v1\/domains\/tlds \(request req_/);
    expect(JSON.stringify(error.err)).toContain("boom in a handler");
    for (const secret of [KEY, "sk_sandbox_wrongwrongwrong", token, "ada@example.com", "secret_user", "authorization", "Bearer"]) expect(raw).not.toContain(secret);
  });
});

describe("graceful shutdown", () => {
  it("finishes a request in flight, refuses new connections, then resolves", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = createServer((_req, res) => {
      void held.then(() => res.writeHead(200).end("done"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const inFlight = fetch(url).then(async (response) => [response.status, await response.text()]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = shutDownGracefully(server, 5000);
    await expect(fetch(url)).rejects.toThrow();
    release();
    expect(await inFlight).toEqual([200, "done"]);
    expect(await stopped).toBe(true);
  });

  it("cuts what is still running when the grace period ends, and says so", async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const hanging = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await shutDownGracefully(server, 100)).toBe(false);
    expect(await hanging).toBeInstanceOf(Error);
  });

  it("npm start exits 0 on SIGTERM", async () => {
    const child = spawn("node", ["--import", "tsx", "server/main.ts"], {
      env: { ...process.env, PORT: "0", EMBED_PORT: "0", DEMO_HOST_PORT: "0", LOG_LEVEL: "silent", PARTNER_API_CONFIG: "/nonexistent.json" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    for (let i = 0; i < 200 && !output.includes("server on"); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain("server on");
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 30_000);
});
