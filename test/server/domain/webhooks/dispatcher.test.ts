/**
 * The dispatcher against the store the tests run on (memory, PGlite or PostgreSQL): an attempt's
 * one deadline, an endpoint deleted while its attempt finishes, and two dispatchers sharing one
 * store as two instances share one database.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pause, scaled } from "../../../../scripts/lib/deadlines.js";
import { ManualClock } from "../../../../server/platform/clock.js";
import { newEvent } from "../../../../server/platform/events.js";
import { PartnerClocks } from "../../../../server/domain/sandbox/partner-clocks.js";
import type { Persistence } from "../../../../server/store/persistence.js";
import { attemptDeadlineMs, MAX_ATTEMPTS_PER_PARTNER, WebhookDispatcher } from "../../../../server/domain/webhooks/dispatcher.js";
import { httpSender, type WebhookSender } from "../../../../server/domain/webhooks/sender.js";
import type { WebhookEndpointRow, WebhookStore } from "../../../../server/domain/webhooks/webhook-store.js";
import { emptyTestPersistence } from "../../../support/test-persistence.js";

let persistence: Persistence;
const clock = new ManualClock("2026-11-22T10:00:00Z");
beforeEach(async () => {
  persistence = await emptyTestPersistence();
});

const clocksOf = () => new PartnerClocks(clock, "sandbox", () => persistence.clockOffsets);
const dispatcherOn = (store: WebhookStore, send: WebhookSender, leaseMs?: number) =>
  new WebhookDispatcher({ store: () => store, clocks: clocksOf(), environment: "sandbox", send, random: () => 0, leaseMs });

async function endpointTo(url: string, partnerId = "partner_a"): Promise<WebhookEndpointRow> {
  const now = clock.now();
  const endpoint: WebhookEndpointRow = {
    id: `whe_${Math.random().toString(36).slice(2, 12)}`,
    partnerId,
    url,
    events: null,
    description: null,
    enabled: true,
    failing: false,
    secret: "whsec_test",
    previousSecret: null,
    createdAt: now,
    updatedAt: now,
  };
  await persistence.webhooks.saveEndpoint(endpoint);
  return endpoint;
}

/** A receiver that answers 200 at once, then sends its body a byte at a time, `bytes` of them. */
let trickling: { server: Server; url: string; requests: number; open: Set<ServerResponse> } | undefined;
async function startTricklingReceiver(byteEveryMs: number, bytes: number) {
  const open = new Set<ServerResponse>();
  const state = { server: undefined as unknown as Server, url: "", requests: 0, open };
  state.server = createServer((req, res) => {
    state.requests++;
    req.resume();
    res.writeHead(200, { "Content-Type": "text/plain" });
    open.add(res);
    let sent = 0;
    const timer = setInterval(() => (++sent < bytes ? res.write(".") : res.end(".")), byteEveryMs);
    res.on("close", () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/hook`;
  trickling = state;
  return state;
}
afterEach(async () => {
  if (!trickling) return;
  trickling.server.closeAllConnections();
  await new Promise((resolve) => trickling!.server.close(resolve));
  trickling = undefined;
});

describe("an attempt's deadline", () => {
  it("ends an attempt whose receiver answers 200 and then trickles, at the deadline, recorded as failed; no other instance sends it meanwhile", async () => {
    const leaseMs = scaled(1500);
    // Trickling for twice the lease: without a deadline of its own, the attempt would outlast it.
    const receiver = await startTricklingReceiver(leaseMs / 20, 40);
    const endpoint = await endpointTo(receiver.url);
    const first = dispatcherOn(persistence.webhooks, httpSender("sandbox"), leaseMs);
    const second = dispatcherOn(persistence.webhooks, httpSender("sandbox"), leaseMs);
    const delivery = await first.queue(endpoint, newEvent("partner_a", "user.deleted", { data: {} }, clock.now()), persistence.webhooks);

    let open = true;
    const attempt = first.tick().finally(() => {
      open = false;
    });
    // The second instance looks for work for as long as the first one's attempt is open.
    while (open) {
      await second.tick();
      await pause(20);
    }
    await attempt;
    await second.idle();

    expect(receiver.requests).toBe(1);
    const recorded = (await persistence.webhooks.findDelivery(delivery.id))!;
    expect(recorded.status).toBe("pending");
    expect(recorded.attempts).toHaveLength(1);
    expect(recorded.attempts[0]).toMatchObject({
      statusCode: 200,
      error: `no complete answer within ${attemptDeadlineMs(leaseMs) / 1000} seconds`,
    });
    expect(recorded.attempts[0]!.durationMs).toBeLessThan(leaseMs);
  });

  it("is shorter than the lease, and the spec's 10 seconds under the default lease", () => {
    expect(attemptDeadlineMs(60_000)).toBe(10_000);
    for (const lease of [1000, 1500, 15_000, 20_000]) expect(attemptDeadlineMs(lease)).toBeLessThan(lease);
  });
});

describe("an endpoint deleted while its attempt finishes", () => {
  it("records nothing, brings back neither the endpoint nor its delivery, and fails no dispatcher run", async () => {
    const endpoint = await endpointTo("http://127.0.0.1:9/hook");
    let sent = false;
    let deleted = false;
    const raw = persistence.webhooks;
    const reads = new Set(["findEndpoint", "findDelivery", "endpointsOf", "allEndpoints", "deliveriesOf"]);
    // Deletes the endpoint just before the dispatcher's first write after the receiver answered.
    const deletingStore = new Proxy(raw, {
      get(target, name: string) {
        const value = Reflect.get(target, name) as unknown;
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (sent && !deleted && !reads.has(name)) {
            deleted = true;
            await raw.deleteEndpoint(endpoint.id);
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const send: WebhookSender = async () => {
      sent = true;
      return { statusCode: 200, error: null, durationMs: 1 };
    };
    const dispatcher = dispatcherOn(deletingStore, send);
    const delivery = await dispatcher.queue(endpoint, newEvent("partner_a", "user.deleted", { data: {} }, clock.now()), raw);

    await expect(dispatcher.tick()).resolves.toBeUndefined();
    expect(deleted).toBe(true);
    expect(await raw.findEndpoint(endpoint.id)).toBeUndefined();
    expect(await raw.findDelivery(delivery.id)).toBeUndefined();
    expect(await raw.endpointsWithPendingDeliveries()).toEqual([]);
  });
});

describe("one partner's attempts", () => {
  it("makes at most MAX_ATTEMPTS_PER_PARTNER at once for one partner, its other endpoints taking turns; another partner's go on meanwhile", async () => {
    const released = { open: () => {} };
    const opened = new Promise<void>((resolve) => {
      released.open = resolve;
    });
    const inFlight = new Map<string, number>();
    let most = 0;
    const sentTo: string[] = [];
    const send: WebhookSender = async (url) => {
      const partner = new URL(url).pathname.split("/")[1]!;
      inFlight.set(partner, (inFlight.get(partner) ?? 0) + 1);
      if (partner === "a") most = Math.max(most, inFlight.get(partner)!);
      if (partner === "a") await opened;
      sentTo.push(url);
      inFlight.set(partner, inFlight.get(partner)! - 1);
      return { statusCode: 200, error: null, durationMs: 1 };
    };
    const dispatcher = dispatcherOn(persistence.webhooks, send);
    const event = (partnerId: string) => newEvent(partnerId, "user.deleted", { data: {} }, clock.now());
    for (let i = 0; i < MAX_ATTEMPTS_PER_PARTNER + 2; i++)
      await dispatcher.queue(await endpointTo(`http://127.0.0.1:9/a/${i}`), event("partner_a"), persistence.webhooks);
    await dispatcher.queue(await endpointTo("http://127.0.0.1:9/b/0", "partner_b"), event("partner_b"), persistence.webhooks);

    const running = dispatcher.tick();
    await vi.waitFor(() => expect(sentTo).toContain("http://127.0.0.1:9/b/0"));
    await vi.waitFor(() => expect(inFlight.get("a")).toBe(MAX_ATTEMPTS_PER_PARTNER));
    released.open();
    await running;
    expect(most).toBe(MAX_ATTEMPTS_PER_PARTNER);
    expect(sentTo.filter((url) => url.includes("/a/"))).toHaveLength(MAX_ATTEMPTS_PER_PARTNER + 2);
  });
});
