/** The HTTP sender and the address policy: SSRF refused by environment, timeouts, at delivery time too. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOnLoopback, type Listener } from "../../../support/listen.js";
import createClient from "openapi-fetch";
import type { paths } from "../../../../generated/types/full.js";
import { createApp } from "../../../../server/assembly/app.js";
import { isAllowedAddress, webhookUrlProblem } from "../../../../server/domain/webhooks/address-policy.js";
import { httpSender, type ResolveHost } from "../../../../server/domain/webhooks/sender.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../../support/webhook-receiver.js";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());

describe("the address policy", () => {
  it.each([
    ["93.184.215.14", true, true],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true, true],
    ["127.0.0.1", false, true],
    ["::1", false, true],
    ["::ffff:127.0.0.1", false, true],
    ["10.1.2.3", false, false],
    ["172.31.255.255", false, false],
    ["172.32.0.1", true, true],
    ["192.168.1.1", false, false],
    ["169.254.169.254", false, false],
    ["100.64.0.1", false, false],
    ["0.0.0.0", false, false],
    ["::ffff:10.0.0.1", false, false],
    ["fd12::1", false, false],
    ["fe80::1", false, false],
    ["224.0.0.1", false, false],
  ])("%s: production %s, sandbox %s", (address, production, sandbox) => {
    expect(isAllowedAddress(address, "production")).toBe(production);
    expect(isAllowedAddress(address, "sandbox")).toBe(sandbox);
  });

  it("refuses localhost names in production only, and odd URLs everywhere", () => {
    expect(webhookUrlProblem("http://localhost:3000/hook", "production")?.message).toMatch(/public addresses only/);
    expect(webhookUrlProblem("http://api.localhost/hook", "production")?.message).toMatch(/public addresses only/);
    expect(webhookUrlProblem("http://localhost:3000/hook", "sandbox")).toBeNull();
    expect(webhookUrlProblem("https://hooks.partner.example/x", "production")).toBeNull();
    expect(webhookUrlProblem("gopher://partner.example/", "sandbox")?.message).toMatch(/http or https/);
  });
});

/** A resolver that answers one name with the given addresses, as node:dns would. */
const resolvingTo =
  (name: string, ...addresses: string[]): ResolveHost =>
  (hostname, _options, callback) =>
    hostname === name
      ? callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
        )
      : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);

describe("the HTTP sender", () => {
  it.each([
    ["loopback", ["127.0.0.1"]],
    ["an IPv4-mapped private address", ["::ffff:10.0.0.1"]],
    ["a public and a link-local address", ["93.184.215.14", "169.254.169.254"]],
  ])("refuses a public-looking name that resolves to %s, without connecting", async (_what, addresses) => {
    const before = receiver.received.length;
    const result = await httpSender("production", 1000, resolvingTo("hooks.partner.example", ...addresses))(
      `http://hooks.partner.example:${receiver.port}/hook`,
      "{}",
      {},
    );
    expect(result).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^EADDRNOTALLOWED: hooks\.partner\.example resolves to .*, an address webhooks are not sent to$/),
    });
    expect(receiver.received.length).toBe(before);
  });

  it("connects to the address it checked", async () => {
    const result = await httpSender("sandbox", 1000, resolvingTo("receiver.partner.example", "127.0.0.1"))(
      `http://receiver.partner.example:${receiver.port}/hook`,
      '{"id":"evt_0"}',
      {},
    );
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received.at(-1)!.rawBody).toBe('{"id":"evt_0"}');
  });

  it("sends to loopback names in the sandbox", async () => {
    const result = await httpSender("sandbox")(`http://localhost:${receiver.port}/hook`, '{"id":"evt_1"}', {
      "Content-Type": "application/json",
    });
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received.at(-1)!.rawBody).toBe('{"id":"evt_1"}');
  });

  it("gives up on a receiver that does not answer in time", async () => {
    receiver.hold();
    const result = await httpSender("sandbox", 200)(receiver.url, "{}", {});
    receiver.release();
    expect(result).toMatchObject({ statusCode: null, error: "no answer within 0.2 seconds" });
  });

  it("reports a non-2xx answer as a failure with its status", async () => {
    receiver.answerWith(410);
    const result = await httpSender("sandbox")(receiver.url, "{}", {});
    receiver.answerWith(200);
    expect(result).toMatchObject({ statusCode: 410, error: "receiver answered 410" });
  });
});

describe("a production deployment", () => {
  const LIVE_KEY = "sk_live_partnerAkey00000000000000000000000";
  let server: Listener;
  let api: ReturnType<typeof createClient<paths>>;
  beforeAll(async () => {
    const { app } = createApp({
      environment: "production",
      embedBaseUrl: "https://embed.invalid",
      partners: [{ partner: { id: "p", name: "P" }, keys: [LIVE_KEY] }],
    });
    server = await serveOnLoopback(app);
    api = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${LIVE_KEY}` } });
  });
  afterAll(() => server.close());

  it.each(["http://127.0.0.1:4000/hook", "http://localhost/hook", "http://[::1]/hook", "http://192.168.0.10/hook"])(
    "refuses the receiver %s with 422",
    async (url) => {
      const { error, response } = await api.POST("/api/v1/webhook_endpoints", { body: { url } });
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ details: { field: "url", code: "non_public_address" } });
    },
  );

  it("takes a public receiver", async () => {
    expect((await api.POST("/api/v1/webhook_endpoints", { body: { url: "https://hooks.partner.example/domains" } })).response.status).toBe(
      201,
    );
  });
});
