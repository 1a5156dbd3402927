/** Security headers, no CORS, structured logs without secrets, graceful shutdown. */
import type { Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { serveOnLoopback } from "../support/listen.js";
import { createApp, type AppConfig } from "../../server/assembly/app.js";
import { healthHandlers } from "../../server/api/handlers/health.js";
import { shutDownGracefully } from "../../server/api/http/graceful-shutdown.js";
import { captureLogger } from "../support/capture-logger.js";
import { announcedAddress, spawnServer } from "../../scripts/lib/server-process.js";
import { PARTNER_A_KEY, startTestServer, useTestServer } from "../support/test-server.js";

const s = useTestServer();
const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${s.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, ...init.headers } });
const headerNames = (response: Response) => {
  const names: string[] = [];
  response.headers.forEach((_value, name) => names.push(name));
  return names;
};
const corsHeaders = (response: Response) => headerNames(response).filter((name) => name.startsWith("access-control-"));

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none'");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  expect(response.headers.get("x-powered-by")).toBeNull();
  expect(response.headers.get("etag")).toBeNull();
}

async function listen(
  config: Partial<AppConfig> & Pick<AppConfig, "partners">,
): Promise<{ server: Server; baseUrl: string; port: number }> {
  const { app } = createApp({ environment: "sandbox", embedBaseUrl: "http://embed.test", ...config });
  const { server, url, port } = await serveOnLoopback(app);
  return { server, baseUrl: url, port };
}

describe("security headers", () => {
  it.each([
    ["a success", "/api/v1/domains/tlds", {}, 200],
    ["a documented error", "/api/v1/users/nobody", {}, 404],
    ["a request without a key", "/api/v1/domains/tlds", { Authorization: "" }, 401],
    ["an unknown route", "/nowhere", {}, 404],
    ["the open health check", "/health", {}, 200],
  ] as const)("are on %s: nothing may load in, frame or sniff a JSON answer", async (_name, path, headers, status) => {
    const response = await send(path, { headers });
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
  });
});

describe("no CORS: API keys are server-side secrets a browser must never hold, so no browser origin is allowed to call the API", () => {
  it("sends no Access-Control-* header, even to a request with an Origin", async () => {
    for (const key of [PARTNER_A_KEY, "sk_sandbox_notAKeyOfAnyPartner0000000000"]) {
      const response = await send("/api/v1/domains/tlds", {
        headers: { Authorization: `Bearer ${key}`, Origin: "https://partner.example" },
      });
      expect(corsHeaders(response)).toEqual([]);
    }
  });

  it("answers a browser's preflight (which carries no key) with the documented 401 and no permission", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/users`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://partner.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "unauthorized", message: expect.any(String) });
    expect(corsHeaders(response)).toEqual([]);
    expectSecurityHeaders(response);
  });

  it.each([
    ["/api/v1/users", 405, "GET, HEAD, POST"],
    ["/api/v1/users/u1", 405, "GET, HEAD, PUT, DELETE"],
    ["/health", 405, "GET, HEAD"],
    ["/api/v1/nowhere", 404, null],
  ] as const)(
    "answers OPTIONS %s with a key in the documented shape (%i), never a 500 or a CORS permission",
    async (path, status, allow) => {
      const response = await send(path, {
        method: "OPTIONS",
        headers: { Origin: "https://partner.example", "Access-Control-Request-Method": "POST" },
      });
      expect(response.status).toBe(status);
      expect(response.headers.get("allow")).toBe(allow);
      expect(await response.json()).toEqual({ error: status === 405 ? "method_not_allowed" : "not_found", message: expect.any(String) });
      expect(corsHeaders(response)).toEqual([]);
    },
  );
});

describe("structured logs", () => {
  const KEY = "sk_sandbox_loggingPartnerKey0000000000000";
  const logs = captureLogger("info");
  let server: Server;
  let baseUrl: string;
  let releaseSlow: (() => void) | undefined;
  beforeAll(async () => {
    ({ server, baseUrl } = await listen({
      partners: [{ partner: { id: "logged", name: "Logged" }, keys: [KEY] }],
      logger: logs.logger,
      handlers: {
        listTlds: () => {
          throw new Error("boom in a handler");
        },
        getApiHealth: async (input, context) => {
          await new Promise<void>((resolve) => (releaseSlow = resolve));
          return healthHandlers.getApiHealth(input, context);
        },
      },
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json", ...init.headers },
    });

  it("log one line per request: request id, route template, operationId, status, duration, partner; never a key, login token, webhook secret, body, query or raw path", async () => {
    const login = await call("/api/v1/users", {
      method: "POST",
      body: JSON.stringify({ user_identifier: "secret_user", email: "ada@example.com" }),
    });
    const { login_url: loginUrl } = (await login.json()) as { login_url: string };
    const token = loginUrl.split("/session/")[1]!;
    expect(token.length).toBeGreaterThan(10);
    const endpoint = await call("/api/v1/webhook_endpoints", {
      method: "POST",
      body: JSON.stringify({ url: "http://127.0.0.1:9/secret_hook" }),
    });
    const { secret } = (await endpoint.json()) as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    const responses = [
      login,
      endpoint,
      await call("/api/v1/users/secret_user"),
      await call("/api/v1/users/secret_user?x=secret_query"),
      await call("/api/v1/health", { headers: { Authorization: "Bearer sk_sandbox_wrongwrongwrong" } }),
      await call("/api/v1/secret_user/typo"),
      await call("/api/v1/domains/tlds"),
    ];
    expect(responses.map((response) => response.status)).toEqual([201, 201, 200, 400, 401, 404, 500]);

    const requests = logs.lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.method, line.route, line.operationId, line.status, line.partner])).toEqual([
      ["POST", "/api/v1/users", "createUserSession", 201, "logged"],
      ["POST", "/api/v1/webhook_endpoints", "createWebhookEndpoint", 201, "logged"],
      ["GET", "/api/v1/users/{user_identifier}", "getUser", 200, "logged"],
      ["GET", "/api/v1/users/{user_identifier}", "getUser", 400, "logged"],
      ["GET", "/api/v1/health", "getApiHealth", 401, null],
      ["GET", null, null, 404, "logged"],
      ["GET", "/api/v1/domains/tlds", "listTlds", 500, "logged"],
    ]);
    requests.forEach((line, i) => {
      expect(line.level).toBe(30);
      expect(line.requestId).toBe(responses[i]!.headers.get("x-request-id"));
      expect(line.durationMs).toEqual(expect.any(Number));
      expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    });
    for (const leak of [
      KEY,
      "sk_sandbox_wrongwrongwrong",
      token,
      secret,
      "whsec_",
      "/session/",
      "ada@example.com",
      "secret_user",
      "secret_query",
      "secret_hook",
      "authorization",
      "Bearer",
    ]) {
      expect(logs.text()).not.toContain(leak);
    }
  });

  it("log an unexpected error (a 500) at error level with the request id and the stack, and the client sees only the id", async () => {
    const crashed = await call("/api/v1/domains/tlds");
    expect(crashed.status).toBe(500);
    expectSecurityHeaders(crashed);
    const requestId = crashed.headers.get("x-request-id");
    expect(await crashed.json()).toEqual({ error: "internal_error", message: expect.stringContaining("X-Request-Id") });
    const error = logs.lines.filter((line) => line.level === 50).at(-1)!;
    expect(error).toMatchObject({
      msg: "unexpected error on GET /api/v1/domains/tlds",
      requestId,
      method: "GET",
      route: "/api/v1/domains/tlds",
      operationId: "listTlds",
    });
    expect((error.err as { stack: string }).stack).toMatch(/^Error: boom in a handler\n\s+at /);
  });

  it("log a request whose client went away before the answer, marked aborted", async () => {
    const controller = new AbortController();
    const gone = call("/api/v1/health", { signal: controller.signal }).catch((error: Error) => error);
    await vi.waitFor(() => expect(releaseSlow).toBeDefined(), { timeout: scaled(1_000) });
    controller.abort();
    expect(await gone).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(logs.lines.at(-1)?.operationId).toBe("getApiHealth"), { timeout: scaled(1_000) });
    expect(logs.lines.at(-1)).toMatchObject({
      msg: "request",
      route: "/api/v1/health",
      operationId: "getApiHealth",
      partner: "logged",
      aborted: true,
    });
    releaseSlow!();
  });
});

describe("error lines", () => {
  const KEY = "sk_sandbox_errorLinesPartnerKey0000000000";
  const PATH_SECRET = "pathsecret_Qx7";
  const QUERY_SECRET = "867530";
  const BODY_SECRET = "bodysecret_Zk4";
  const logs = captureLogger("info");
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    ({ server, baseUrl } = await listen({
      partners: [{ partner: { id: "errors", name: "Errors" }, keys: [KEY] }],
      logger: logs.logger,
      handlers: {
        // Answers that break the spec: the validator's 500 holds the request's raw URL.
        getUser: () => ({ status: 200, body: { user_identifier: 42 } }) as never,
        listUsers: () => ({ status: 200, body: { users: "none" } }) as never,
        // What an HTTP client's error looks like: the URL, headers and body of its request, and a cause.
        updateUser: ({ path, body }) => {
          const cause = Object.assign(new Error("connection reset"), { code: "ECONNRESET", address: `/${path.user_identifier}` });
          throw Object.assign(new Error("upstream failed", { cause }), {
            status: 502,
            path: `/users/${path.user_identifier}`,
            url: `https://upstream.invalid/${path.user_identifier}`,
            body,
            headers: { "x-user": path.user_identifier },
          });
        },
      },
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" } });

  it("carry no raw path, query string or body in any field, and keep the error's type, message, stack, code, status and cause", async () => {
    const responses = [
      await call(`/api/v1/users/${PATH_SECRET}`),
      await call(`/api/v1/users?offset=${QUERY_SECRET}&order=asc`),
      await call(`/api/v1/users/${PATH_SECRET}`, { method: "PUT", body: JSON.stringify({ email: `${BODY_SECRET}@example.com` }) }),
    ];
    expect(responses.map((response) => response.status)).toEqual([500, 500, 500]);
    const errors = logs.lines.filter((line) => line.level === 50);
    expect(errors.map((line) => [line.msg, line.route])).toEqual([
      ["unexpected error on GET /api/v1/users/{user_identifier}", "/api/v1/users/{user_identifier}"],
      ["unexpected error on GET /api/v1/users", "/api/v1/users"],
      ["unexpected error on PUT /api/v1/users/{user_identifier}", "/api/v1/users/{user_identifier}"],
    ]);
    for (const secret of [PATH_SECRET, QUERY_SECRET, BODY_SECRET, "offset="]) expect(logs.text()).not.toContain(secret);
    expect(errors[0]!.err).toEqual({
      type: "InternalServerError",
      message: expect.stringContaining("/response"),
      stack: expect.stringMatching(/^Internal Server Error: \/response/),
      status: 500,
    });
    expect(errors[2]!.err).toEqual({
      type: "Error",
      message: "upstream failed",
      stack: expect.stringMatching(/^Error: upstream failed\n\s+at /),
      status: 502,
      cause: { type: "Error", message: "connection reset", stack: expect.stringMatching(/^Error: connection reset\n/), code: "ECONNRESET" },
    });
  });
});

describe("the test server's logger", () => {
  it("fails close() when the server logged an error-level line (an unexpected error), as every suite relies on", async () => {
    const server = await startTestServer();
    server.services.store = {} as never;
    const response = await fetch(`${server.baseUrl}/api/v1/users/u1`, { headers: { Authorization: `Bearer ${PARTNER_A_KEY}` } });
    expect(response.status).toBe(500);
    await expect(server.close()).rejects.toThrow(/the server logged unexpected errors: .*"level":50.*TypeError/);
  });
});

describe("graceful shutdown", () => {
  const KEY = "sk_sandbox_shutdownPartnerKey000000000000";
  /** A server whose GET /api/v1/health waits until the test releases it. */
  async function slowServer() {
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inHandler = new Promise<void>((resolve) => (started = resolve));
    const listening = await listen({
      partners: [{ partner: { id: "p", name: "P" }, keys: [KEY] }],
      handlers: {
        getApiHealth: async (input, context) => {
          started();
          await held;
          return healthHandlers.getApiHealth(input, context);
        },
      },
    });
    const slow = () => fetch(`${listening.baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${KEY}` } });
    return { ...listening, slow, release, inHandler };
  }
  const refusesConnections = (port: number) =>
    new Promise<string | undefined>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve("connected");
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    });

  it("finishes a request in flight with 200, refuses new connections, closes idle keep-alive ones at once, then resolves true", async () => {
    const { server, baseUrl, port, slow, release, inHandler } = await slowServer();
    // A keep-alive connection left idle in the client's pool: it must not hold the shutdown open.
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
    const inFlight = slow().then(async (response) => ({ status: response.status, body: (await response.json()) as { status: string } }));
    await inHandler;
    // The grace period outlasts the test: the stop ends only by itself, once nothing runs.
    const stopped = shutDownGracefully(server, 24 * 3600_000);
    expect(await refusesConnections(port)).toBe("ECONNREFUSED");
    release();
    expect(await inFlight).toMatchObject({ status: 200, body: { status: "ok" } });
    // The listener keeps idle connections open for ever (keepIdleConnections): the stop resolves
    // only because it closed the idle one itself, rather than waiting for it.
    expect(await stopped).toBe(true);
  });

  it("cuts what is still running when the grace period ends, and resolves false", async () => {
    const { server, slow, inHandler, release } = await slowServer();
    const hanging = slow().catch((error: Error) => error);
    await inHandler;
    expect(await shutDownGracefully(server, 100)).toBe(false);
    expect(await hanging).toBeInstanceOf(Error);
    release();
  });

  it("npm start (server/main.ts) logs the bound address, serves, and exits 0 on SIGTERM", async () => {
    const key = "sk_sandbox_childProcessKey00000000000000";
    const server = spawnServer(["--import", "tsx", "server/main.ts"], {
      LOG_LEVEL: "info",
      PARTNER_API_CONFIG: "/nonexistent.json",
      PARTNER_API_KEYS: `child:${key}`,
    });
    const { child, output, exited } = server;
    try {
      const port = /:(\d+)$/.exec((await announcedAddress(server)) ?? "")?.[1];
      expect(port, output()).toBeDefined();
      expect(Number(port)).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const lines = output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toContainEqual(expect.objectContaining({ msg: "request", operationId: "getApiHealth", status: 200, partner: "child" }));
      expect(lines).toContainEqual(expect.objectContaining({ msg: "shutting down", signal: "SIGTERM" }));
      expect(lines).toContainEqual(expect.objectContaining({ msg: "stopped", complete: true }));
      expect(output()).not.toContain(key);
    } finally {
      await server.kill();
    }
  });
});
