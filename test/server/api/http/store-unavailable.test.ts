/**
 * The database out of reach (a restart, a failover, a pool with no free connection): every request
 * answers the documented 503 with Retry-After, wherever in the chain the store was needed, is
 * logged as a warning without a stack, and the server serves again by itself once the database
 * answers. The store here only pretends to be unreachable (test/support/unavailable-persistence.ts);
 * the same against a real PostgreSQL server stopped under load is the fault test's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp, type PartnerApi } from "../../../../server/assembly/app.js";
import { createEmbedApp } from "../../../../server/embed/embed-app.js";
import { MemoryPersistence } from "../../../../server/store/memory/memory-persistence.js";
import { captureLogger, type CapturedLogs } from "../../../support/capture-logger.js";
import { listen, type Listener } from "../../../support/listen.js";
import { PARTNER_A_KEY } from "../../../support/test-server.js";
import { RETRY_AFTER_SECONDS, UnavailablePersistence } from "../../../support/unavailable-persistence.js";

const UNAVAILABLE = {
  error: "service_unavailable",
  message: "The service is briefly unavailable; retry after the Retry-After seconds",
};

let persistence: UnavailablePersistence;
let api: PartnerApi;
let logs: CapturedLogs;
let apiListener: Listener;
let embedListener: Listener;
const embedLogs: string[] = [];

beforeAll(async () => {
  persistence = new UnavailablePersistence(new MemoryPersistence());
  logs = captureLogger("warn");
  [apiListener, embedListener] = await Promise.all([listen(), listen()]);
  api = createApp({
    persistence,
    environment: "sandbox",
    embedBaseUrl: embedListener.url,
    partners: [{ partner: { id: "partner_a", name: "Partner A" }, keys: [PARTNER_A_KEY] }],
    logger: logs.logger,
  });
  apiListener.serve(api.app);
  embedListener.serve(createEmbedApp(api.services, { log: (message, error) => embedLogs.push(error ? `${message} ERROR` : message) }));
});
afterEach(() => {
  persistence.bringBack();
  logs.lines.length = 0;
  embedLogs.length = 0;
});
afterAll(async () => {
  await Promise.all([apiListener.close(), embedListener.close()]);
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(apiListener.url + path, {
    method,
    headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
  expect(response.headers.get("x-ratelimit-limit")).toBeNull();
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(await response.json()).toEqual(UNAVAILABLE);
}

/** The log lines at error level (the 500s'), and those at warn. */
const errorLines = () => logs.lines.filter((line) => line.level >= 50);
const warnLines = () => logs.lines.filter((line) => line.level === 40);

describe("while the database cannot be reached", () => {
  it("a read whose handler needs the store answers 503 with Retry-After in the documented shape, and passes response validation", async () => {
    expect((await call("POST", "/api/v1/users", { user_identifier: "u1" })).status).toBe(201);
    persistence.takeDown("store");
    await expectUnavailable(await call("GET", "/api/v1/users/u1"));
    await expectUnavailable(await call("GET", "/api/v1/dns_records/rec_unknown"));
    expect(errorLines()).toEqual([]);
  });

  it("a write answers 503 and changes nothing", async () => {
    persistence.takeDown("transaction");
    await expectUnavailable(await call("POST", "/api/v1/users", { user_identifier: "u2" }));
    persistence.bringBack();
    expect((await call("GET", "/api/v1/users/u2")).status).toBe(404);
  });

  it("an authenticated request answers 503 when the rate-limit counters or the sandbox clocks cannot be read", async () => {
    persistence.takeDown("rateLimits");
    await expectUnavailable(await call("GET", "/api/v1/domains/tlds"));
    persistence.bringBack();
    persistence.takeDown("clockOffsets");
    await expectUnavailable(await call("GET", "/api/v1/health"));
    // A request that addresses no operation is counted first, so it too finds the database gone.
    await expectUnavailable(await call("GET", "/api/v1/nothing-here"));
  });

  it("GET /health answers 503 with Retry-After without a key, so a load balancer drains the instance", async () => {
    persistence.takeDown("ping");
    const response = await fetch(`${apiListener.url}/health`);
    await expectUnavailable(response);
  });

  it("logs one warning per request naming the route and the reason, one for the request log's outage, without a stack, and no unexpected error", async () => {
    persistence.takeDown();
    await expectUnavailable(await call("GET", "/api/v1/users/u1"));
    expect(errorLines()).toEqual([]);
    expect(warnLines().map(({ msg, route, reason, retryAfter }) => ({ msg, route, reason, retryAfter }))).toEqual([
      {
        msg: "store unavailable on GET /api/v1/users/{user_identifier}",
        route: "/api/v1/users/{user_identifier}",
        reason: "the database cannot be reached (taken down by the test)",
        retryAfter: RETRY_AFTER_SECONDS,
      },
      {
        msg: "cannot write the request log; its records are kept for the next try",
        route: undefined,
        reason: "the database cannot be reached (taken down by the test)",
        retryAfter: undefined,
      },
    ]);
    expect(logs.text()).not.toMatch(/\n\s+at |"stack"/);
  });
});

describe("once the database answers again", () => {
  it("the same requests succeed without a restart", async () => {
    persistence.takeDown();
    await expectUnavailable(await call("POST", "/api/v1/users", { user_identifier: "u3" }));
    await expectUnavailable(await fetch(`${apiListener.url}/health`));
    persistence.bringBack();
    expect((await call("POST", "/api/v1/users", { user_identifier: "u3" })).status).toBe(201);
    expect((await call("GET", "/api/v1/users/u3")).status).toBe(200);
    expect((await fetch(`${apiListener.url}/health`)).status).toBe(200);
    expect(errorLines()).toEqual([]);
  });
});

describe("webhook deliveries while the database cannot be reached", () => {
  it("a prompt delivery attempt that finds the webhook store gone neither crashes the process nor leaves a rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const collect = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", collect);
    try {
      const prompt = createApp({
        persistence,
        environment: "sandbox",
        embedBaseUrl: embedListener.url,
        partners: [],
        deliverWebhooksPromptly: true,
      });
      persistence.takeDown("webhooks");
      prompt.outbox.record({ id: "evt_1", partnerId: "partner_a", type: "user.deleted", createdAt: new Date(), payload: {} });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("unhandledRejection", collect);
    }
    expect(unhandled).toEqual([]);
  });
});

describe("the embedded interface while the database cannot be reached", () => {
  it("answers a 503 page with Retry-After, not the problem page, and logs no stack", async () => {
    const created = (await (await call("POST", "/api/v1/users", { user_identifier: "u4" })).json()) as { login_url: string };
    persistence.takeDown();
    const response = await fetch(created.login_url.replace("localhost", "127.0.0.1"), { redirect: "manual" });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("Briefly unavailable");
    expect(embedLogs).toEqual(["embed: store unavailable on GET /session/:token: the database cannot be reached (taken down by the test)"]);
  });
});
