/**
 * Where webhooks may go: one policy, by environment, applied when a receiver is registered and again
 * when each delivery is sent. Every spelling of a non-public destination is refused at registration,
 * so nothing is registered that the sender would refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import createClient from "openapi-fetch";
import type { paths } from "../../../../generated/types/full.js";
import { createApp } from "../../../../server/assembly/app.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../../../server/platform/rate-limits/policy.js";
import { isAllowedAddress, webhookUrlProblem } from "../../../../server/domain/webhooks/address-policy.js";
import { httpSender } from "../../../../server/domain/webhooks/sender.js";
import { serveOnLoopback, type Listener } from "../../../support/listen.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../../support/webhook-receiver.js";

/** Non-public destinations, each as a receiver URL would spell it. */
const REFUSED_EVERYWHERE: Array<[string, string]> = [
  ["unspecified IPv4", "http://0.0.0.0/hook"],
  ["private IPv4 (10/8)", "http://10.0.0.1/hook"],
  ["private IPv4 (172.16/12)", "http://172.16.0.1/hook"],
  ["private IPv4 (192.168/16)", "http://192.168.1.1/hook"],
  ["carrier-grade NAT", "http://100.64.0.1/hook"],
  ["link-local IPv4, cloud metadata", "http://169.254.169.254/latest/meta-data"],
  ["documentation IPv4 (TEST-NET-1)", "http://192.0.2.1/hook"],
  ["benchmarking IPv4", "http://198.18.0.1/hook"],
  ["reserved IPv4 (240/4)", "http://240.0.0.1/hook"],
  ["multicast IPv4", "http://224.0.0.1/hook"],
  ["broadcast", "http://255.255.255.255/hook"],
  ["unspecified IPv6", "http://[::]/hook"],
  ["link-local IPv6", "http://[fe80::1]/hook"],
  ["unique-local IPv6", "http://[fd00::1]/hook"],
  ["site-local IPv6 (deprecated)", "http://[fec0::1]/hook"],
  ["multicast IPv6", "http://[ff02::1]/hook"],
  ["documentation IPv6", "http://[2001:db8::1]/hook"],
  ["discard-only IPv6", "http://[100::1]/hook"],
  ["an IPv6 address outside global unicast (2000::/3)", "http://[4000::1]/hook"],
  ["IPv4-mapped link-local", "http://[::ffff:169.254.169.254]/hook"],
  ["IPv4-mapped private, in hex", "http://[::ffff:a00:1]/hook"],
  ["IPv4-compatible private", "http://[::10.0.0.1]/hook"],
  ["IPv4-translated (RFC 6145) link-local", "http://[::ffff:0:169.254.169.254]/hook"],
  ["NAT64 of link-local", "http://[64:ff9b::169.254.169.254]/hook"],
  ["NAT64 local-use prefix (RFC 8215)", "http://[64:ff9b:1::a00:1]/hook"],
  ["6to4 of private", "http://[2002:c0a8:101::1]/hook"],
  ["6to4 of link-local", "http://[2002:a9fe:a9fe::1]/hook"],
  ["Teredo whose client is private", "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook"],
  ["GCE metadata name", "http://metadata.google.internal/computeMetadata/v1/"],
  ["GCE metadata name, trailing dot", "http://metadata.google.internal./computeMetadata/v1/"],
  ["AWS metadata name", "http://instance-data.ec2.internal/latest/meta-data"],
  ["a single-label name (resolved through the server's search domains)", "http://metadata/computeMetadata/v1/"],
  ["mDNS name", "http://printer.local/hook"],
  ["home network name", "http://nas.home.arpa/hook"],
];

/** Loopback in every spelling: the sandbox takes it (a receiver on the partner's own machine), production does not. */
const LOOPBACK: Array<[string, string]> = [
  ["loopback IPv4", "http://127.0.0.1/hook"],
  ["loopback IPv4, short form", "http://127.1/hook"],
  ["loopback IPv4, as one number", "http://2130706433/hook"],
  ["loopback IPv4, in hex and octal", "http://0x7f.0.0.01/hook"],
  ["loopback IPv4, another of 127/8", "http://127.255.0.1/hook"],
  ["loopback IPv6", "http://[::1]/hook"],
  ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/hook"],
  ["IPv4-mapped loopback, in hex", "http://[::ffff:7f00:1]/hook"],
  ["IPv4-mapped loopback, written out", "http://[0:0:0:0:0:ffff:7f00:1]/hook"],
  ["IPv4-compatible loopback", "http://[::127.0.0.1]/hook"],
  ["NAT64 of loopback", "http://[64:ff9b::127.0.0.1]/hook"],
  ["6to4 of loopback", "http://[2002:7f00:1::1]/hook"],
  ["Teredo whose client is loopback", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook"],
  ["localhost", "http://localhost/hook"],
  ["localhost, trailing dot", "http://localhost./hook"],
  ["localhost, upper case", "http://LOCALHOST:4000/hook"],
  ["a name under localhost", "http://api.localhost/hook"],
  ["a name under localhost, trailing dot", "http://api.localhost./hook"],
];

const PUBLIC: Array<[string, string]> = [
  ["a public name", "https://hooks.partner.example/domains"],
  ["a public name, trailing dot", "https://hooks.partner.example./domains"],
  ["a public name on another port", "https://hooks.partner.example:8443/domains"],
  ["a public IPv4", "http://93.184.215.14/hook"],
  ["a public IPv6", "http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook"],
  ["IPv4-mapped public", "http://[::ffff:93.184.215.14]/hook"],
  ["NAT64 of a public IPv4", "http://[64:ff9b::93.184.215.14]/hook"],
  ["6to4 of a public IPv4", "http://[2002:5db8:d70e::1]/hook"],
];

describe("registering a receiver in production", () => {
  const LIVE_KEY = "sk_live_partnerAkey00000000000000000000000";
  let server: Listener;
  let api: ReturnType<typeof createClient<paths>>;
  beforeAll(async () => {
    // The table sends more requests than a minute's limit allows.
    const rateLimits = scaleRateLimits(DEFAULT_RATE_LIMITS, 10);
    const { app } = createApp({
      environment: "production",
      embedBaseUrl: "https://embed.invalid",
      partners: [{ partner: { id: "p", name: "P" }, keys: [LIVE_KEY] }],
      rateLimits,
    });
    server = await serveOnLoopback(app);
    api = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${LIVE_KEY}` } });
  });
  afterAll(() => server.close());

  it.each([...REFUSED_EVERYWHERE, ...LOOPBACK])("refuses %s (%s) with 422 non_public_address, registering nothing", async (_what, url) => {
    const { error, response } = await api.POST("/api/v1/webhook_endpoints", { body: { url } });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "url", code: "non_public_address" } });
    expect((await api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
  });

  it("refuses port 0, which no receiver listens on, with 422 invalid_port", async () => {
    const { error, response } = await api.POST("/api/v1/webhook_endpoints", { body: { url: "https://hooks.partner.example:0/domains" } });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field: "url", code: "invalid_port" } });
  });

  it("refuses the same on update", async () => {
    const { data } = await api.POST("/api/v1/webhook_endpoints", { body: { url: "https://hooks.partner.example/domains" } });
    const { response } = await api.PUT("/api/v1/webhook_endpoints/{endpoint_id}", {
      params: { path: { endpoint_id: data!.id } },
      body: { url: "http://[::ffff:7f00:1]/hook" },
    });
    expect(response.status).toBe(422);
    expect((await api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: data!.id } } })).data!.url).toBe(
      "https://hooks.partner.example/domains",
    );
    await api.DELETE("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: data!.id } } });
  });

  it.each(PUBLIC)("takes %s (%s)", async (_what, url) => {
    const { data, response } = await api.POST("/api/v1/webhook_endpoints", { body: { url } });
    expect(response.status).toBe(201);
    await api.DELETE("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: data!.id } } });
  });
});

describe("the policy by environment", () => {
  it.each(REFUSED_EVERYWHERE)("refuses %s (%s) in the sandbox too", (_what, url) => {
    expect(webhookUrlProblem(url, "sandbox")).toMatchObject({ code: "non_public_address" });
  });

  it.each(LOOPBACK)("takes %s (%s) in the sandbox only", (_what, url) => {
    expect(webhookUrlProblem(url, "sandbox")).toBeNull();
    expect(webhookUrlProblem(url, "production")).toMatchObject({ code: "non_public_address" });
  });

  it.each(PUBLIC)("takes %s (%s) everywhere", (_what, url) => {
    expect(webhookUrlProblem(url, "production")).toBeNull();
    expect(webhookUrlProblem(url, "sandbox")).toBeNull();
  });

  it("names what the address is, and what an embedding form carries", () => {
    expect(webhookUrlProblem("http://[::ffff:7f00:1]/hook", "production")!.message).toBe(
      "url points at ::ffff:7f00:1, which carries 127.0.0.1 (loopback); production sends webhooks to public addresses only",
    );
    expect(webhookUrlProblem("http://metadata.google.internal./x", "production")!.message).toBe(
      "url points at metadata.google.internal., a private-use name (.internal) no public receiver has; production sends webhooks to public addresses only",
    );
  });

  it.each([
    ["93.184.215.14", true, true],
    ["127.0.0.1", false, true],
    ["::ffff:7f00:1", false, true],
    ["::ffff:10.0.0.1", false, false],
    ["64:ff9b::a9fe:a9fe", false, false],
    ["2002:a00:1::", false, false],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true, true],
    ["fe80::1%eth0", false, false],
    ["not an address", false, false],
  ])("judges the resolved address %s: production %s, sandbox %s", (address, production, sandbox) => {
    expect(isAllowedAddress(address, "production")).toBe(production);
    expect(isAllowedAddress(address, "sandbox")).toBe(sandbox);
  });
});

describe("sending in production", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.stop());

  it.each(["127.0.0.1", "[::ffff:7f00:1]", "[::ffff:127.0.0.1]"])(
    "refuses a receiver whose host is the address %s without connecting (no name lookup stands in the way)",
    async (host) => {
      const result = await httpSender("production")(`http://${host}:${receiver.port}/hook`, "{}", {});
      expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/^url points at .*127\.0\.0\.1 \(loopback\)/) });
      expect(receiver.received).toEqual([]);
    },
  );

  it("refuses port 0 before connecting", async () => {
    const result = await httpSender("sandbox")("http://127.0.0.1:0/hook", "{}", {});
    expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining("port") });
  });
});
