/** Webhooks end to end: endpoints through the API, signed deliveries to a real receiver, retries on the clock. */
import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline, pause } from "../../../../scripts/lib/deadlines.js";
import { RETRY_DELAYS_S } from "../../../../server/domain/webhooks/retry-schedule.js";
import { loadDocument, pointer, SchemaValidator } from "../../../support/openapi-document.js";
import { useTestServer } from "../../../support/test-server.js";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../../../support/webhook-receiver.js";

const s = useTestServer();
let receiver: WebhookReceiver;
let other: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  other = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.stop();
  await other.stop();
});
beforeEach(() => {
  for (const r of [receiver, other]) {
    r.received.length = 0;
    r.answerWith(200);
  }
});
afterEach(async () => {
  receiver.release();
  await s.services.webhooks.dispatcher.idle();
});

const document = loadDocument("full");
const validator = new SchemaValidator(document);
const hmac = (body: string, secret: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
const tick = () => s.services.webhooks.dispatcher.tick();
const advanceSeconds = (seconds: number) => s.clock.advance(seconds * 1000);

const createEndpoint = async (body: { url?: string; events?: string[]; description?: string } = {}) => {
  const { data, response, error } = await s.api.POST("/api/v1/webhook_endpoints", { body: { url: receiver.url, ...body } as never });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
};
const deliveries = async (endpoint_id: string) =>
  (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}/deliveries", { params: { path: { endpoint_id } } })).data!;
const endpointStatus = async (endpoint_id: string) =>
  (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id } } })).data!.status;
/** An event: deleting a user emits user.deleted. */
const emitUserDeleted = async (user_identifier = "u1") => {
  await s.api.POST("/api/v1/users", { body: { user_identifier } });
  await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier } } });
};
/** Waits, a few milliseconds at a time, for something the dispatcher does in the background. */
async function until(condition: () => boolean, baseMs = 5000): Promise<void> {
  for (const deadline = new Deadline(baseMs); !condition(); ) {
    if (deadline.passed) throw new Error(`condition not met ${deadline.describe()}`);
    await pause(5);
  }
}
const registerDomain = (domain_name: string) => s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name } });

describe("webhook endpoints through the API", () => {
  it("registers an endpoint, showing its secret once; reads and lists never show it", async () => {
    const created = await createEndpoint({ description: "Main receiver" });
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_[A-Za-z0-9]{24}$/),
      url: receiver.url,
      events: [
        "domain.registered",
        "domain.renewed",
        "domain.updated",
        "domain.expired",
        "transfer.status_changed",
        "dns_record.created",
        "dns_record.updated",
        "dns_record.deleted",
        "user.deleted",
      ],
      description: "Main receiver",
      status: "enabled",
      created_at: "2026-11-22T10:00:00Z",
      updated_at: "2026-11-22T10:00:00Z",
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/),
    });
    const read = (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: created.id } } })).data!;
    expect(read).not.toHaveProperty("secret");
    expect((await s.api.GET("/api/v1/webhook_endpoints")).data!.endpoints.map((endpoint) => endpoint.id)).toEqual([created.id]);
  });

  it("keeps partners apart: another partner's endpoint is 404 and not listed", async () => {
    const created = await createEndpoint();
    expect(
      (await s.otherPartner.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: created.id } } })).response
        .status,
    ).toBe(404);
    expect((await s.otherPartner.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
    expect(
      (await s.otherPartner.DELETE("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: created.id } } })).response
        .status,
    ).toBe(404);
  });

  it("allows loopback in the sandbox, for receivers on the partner's own machine", async () => {
    expect((await s.api.POST("/api/v1/webhook_endpoints", { body: { url: "http://localhost:4000/hook" } })).response.status).toBe(201);
    expect((await s.api.POST("/api/v1/webhook_endpoints", { body: { url: "http://[::1]:4000/hook" } })).response.status).toBe(201);
  });

  it("takes 16 endpoints per partner, refusing the 17th with 422", async () => {
    for (let i = 0; i < 16; i++) await createEndpoint({ url: `${receiver.url}/${i}` });
    const { error, response } = await s.api.POST("/api/v1/webhook_endpoints", { body: { url: receiver.url } });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "unprocessable_entity", details: { code: "limit_reached" } });
  });

  it("updates the URL, events and description; refuses an empty update with 400", async () => {
    const created = await createEndpoint();
    const { data } = await s.api.PUT("/api/v1/webhook_endpoints/{endpoint_id}", {
      params: { path: { endpoint_id: created.id } },
      body: { url: other.url, events: ["user.deleted"], description: "moved" },
    });
    expect(data).toMatchObject({ url: other.url, events: ["user.deleted"], description: "moved", status: "enabled" });
    expect(
      (await s.api.PUT("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: created.id } }, body: {} })).response
        .status,
    ).toBe(400);
  });

  it("deletes an endpoint with its log: nothing more is sent to it", async () => {
    const created = await createEndpoint();
    expect(
      (await s.api.DELETE("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: created.id } } })).response.status,
    ).toBe(204);
    await emitUserDeleted();
    await tick();
    expect(receiver.received).toEqual([]);
    expect(
      (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}/deliveries", { params: { path: { endpoint_id: created.id } } })).response
        .status,
    ).toBe(404);
  });
});

describe("deliveries", () => {
  it("sends each event signed, with the documented headers and envelope, never inside the request", async () => {
    const { secret, id } = await createEndpoint();
    await emitUserDeleted();
    expect(receiver.received).toEqual([]);
    await tick();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received as [ReceivedWebhook];
    expect(delivery.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "PartnerAPI-Webhooks/1.0",
      "partner-signature": hmac(delivery.rawBody, secret),
      "partner-event-id": delivery.body.id,
      "partner-event-type": "user.deleted",
    });
    expect(delivery.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "user.deleted",
      created_at: "2026-11-22T10:00:00Z",
      sent_at: "2026-11-22T10:00:00Z",
      api_version: "v1",
      data: { user_identifier: "u1" },
    });
    expect(
      validator.errorsAt(
        pointer("x-webhooks", "user.deleted", "post", "requestBody", "content", "application/json", "schema"),
        delivery.body,
      ),
    ).toBeNull();
    const log = await deliveries(id);
    expect(log).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(log.deliveries[0]).toMatchObject({
      event_id: delivery.body.id,
      event_type: "user.deleted",
      status: "succeeded",
      next_attempt_at: null,
      attempts: [{ attempted_at: "2026-11-22T10:00:00Z", status_code: 200, error: null }],
    });
  });

  it("every event type's envelope matches its x-webhooks schema", async () => {
    await createEndpoint();
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const { data: domain } = await registerDomain("ada.com");
    await s.api.PUT("/api/v1/domains/{domain_id}", { params: { path: { domain_id: domain!.id } }, body: { auto_renew: false } });
    await s.api.POST("/api/v1/domains/{domain_id}/renew", { params: { path: { domain_id: domain!.id } }, body: { years: 1 } });
    const { data: record } = await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domain!.id } },
      body: { type: "A", name: "www", content: "192.0.2.1" },
    });
    await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domain!.id, record_id: record!.id } },
      body: { content: "192.0.2.2" },
    });
    await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domain!.id, record_id: record!.id } },
    });
    await s.api.PUT("/api/v1/sandbox/domains/{domain_id}/status", {
      params: { path: { domain_id: domain!.id } },
      body: { status: "expired" },
    });
    await s.api.POST("/api/v1/domains/transfer", { body: { domain_name: "turing.com", user_identifier: "u1", auth_code: "Xk8#pL2q!Rm9" } });
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 8 * 86400 } });
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    await tick();
    const types = new Set(receiver.received.map((delivery) => delivery.body.type));
    expect([...types].sort(), JSON.stringify(s.outbox.events.map((event) => event.type))).toEqual([
      "dns_record.created",
      "dns_record.deleted",
      "dns_record.updated",
      "domain.expired",
      "domain.registered",
      "domain.renewed",
      "domain.updated",
      "transfer.status_changed",
      "user.deleted",
    ]);
    for (const delivery of receiver.received) {
      expect(
        validator.errorsAt(
          pointer("x-webhooks", delivery.body.type, "post", "requestBody", "content", "application/json", "schema"),
          delivery.body,
        ),
        delivery.body.type,
      ).toBeNull();
    }
  });

  it("sends only the subscribed types", async () => {
    await createEndpoint({ events: ["transfer.status_changed"] });
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    await registerDomain("ada.com");
    await tick();
    expect(receiver.received).toEqual([]);
  });

  it("delivers an endpoint's events in the order they happened, and one endpoint's slowness never holds up another", async () => {
    await createEndpoint();
    const { id: otherId } = await createEndpoint({ url: other.url });
    receiver.hold();
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    await registerDomain("first.com");
    await registerDomain("second.com");
    const running = tick();
    await until(() => other.received.length === 2);
    expect(other.received.map((delivery) => (delivery.body.data as { name: string }).name)).toEqual(["first.com", "second.com"]);
    expect((await deliveries(otherId)).deliveries.every((delivery) => delivery.status === "succeeded")).toBe(true);
    expect(receiver.received).toHaveLength(1);
    receiver.release();
    await running;
    expect(receiver.received.map((delivery) => (delivery.body.data as { name: string }).name)).toEqual(["first.com", "second.com"]);
  });

  it("writes no delivery in the request's transaction: a change set's events wait in the outbox, then go out to every endpoint in order", async () => {
    const endpoints = [await createEndpoint(), await createEndpoint({ url: other.url })];
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const domainId = (await registerDomain("outbox.com")).data!.id;
    receiver.received.length = 0;
    other.received.length = 0;
    const names = Array.from({ length: 150 }, (_, i) => `h${String(i).padStart(3, "0")}`);
    const applied = await s.api.POST("/api/v1/domains/{domain_id}/dns/changes", {
      params: { path: { domain_id: domainId } },
      body: { creates: names.map((name) => ({ type: "A", name, content: "192.0.2.1" })) } as never,
    });
    expect(applied.response.status).toBe(200);
    for (const { id } of endpoints) expect((await s.services.webhooks.store.deliveriesOf(id, { limit: 1, offset: 0 })).total).toBe(0);
    await tick();
    for (const { id } of endpoints) expect((await s.services.webhooks.store.deliveriesOf(id, { limit: 1, offset: 0 })).total).toBe(151);
    for (const r of [receiver, other])
      expect(r.received.filter((d) => d.body.type === "dns_record.created").map((d) => (d.body.data as { name: string }).name)).toEqual(
        names,
      );
  });

  it("retries a failing receiver on the documented schedule, then marks the endpoint failing", async () => {
    const { id } = await createEndpoint();
    receiver.answerWith(500);
    await emitUserDeleted();
    await tick();
    expect(receiver.received).toHaveLength(1);
    for (const [index, delay] of RETRY_DELAYS_S.entries()) {
      const [delivery] = (await deliveries(id)).deliveries;
      expect(delivery).toMatchObject({
        status: "pending",
        next_attempt_at: new Date(Date.parse("2026-11-22T10:00:00Z") + 1000 * RETRY_DELAYS_S.slice(0, index + 1).reduce((a, b) => a + b, 0))
          .toISOString()
          .replace(".000Z", "Z"),
      });
      advanceSeconds(delay - 1);
      await tick();
      expect(receiver.received, `attempt ${index + 2} came early`).toHaveLength(index + 1);
      advanceSeconds(1);
      await tick();
      expect(receiver.received).toHaveLength(index + 2);
    }
    const [delivery] = (await deliveries(id)).deliveries;
    expect(delivery!.status).toBe("failed");
    expect(delivery!.attempts).toHaveLength(10);
    expect(delivery!.attempts.every((attempt) => attempt.status_code === 500 && attempt.error === "receiver answered 500")).toBe(true);
    expect(delivery!.next_attempt_at).toBeNull();
    expect(await endpointStatus(id)).toBe("failing");
    expect(new Set(receiver.received.map((received) => received.body.id)).size).toBe(1);
    // Every attempt is signed anew with its own sent_at; created_at stays the event's.
    expect(new Set(receiver.received.map((received) => received.body.created_at)).size).toBe(1);
    expect(new Set(receiver.received.map((received) => received.body.sent_at)).size).toBe(10);

    receiver.answerWith(204);
    await emitUserDeleted("u2");
    await tick();
    expect(await endpointStatus(id)).toBe("enabled");
  });

  it("loses nothing while the receiver is down: what was sent meanwhile arrives when it is back", async () => {
    const { id } = await createEndpoint();
    await receiver.stop();
    await emitUserDeleted("u1");
    await emitUserDeleted("u2");
    await tick();
    const failed = (await deliveries(id)).deliveries;
    expect(failed.map((delivery) => delivery.status)).toEqual(["pending", "pending"]);
    expect(failed[0]!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining("ECONNREFUSED") });
    await receiver.start();
    advanceSeconds(60);
    await tick();
    expect(receiver.received.map((delivery) => delivery.body.data.user_identifier)).toEqual(["u1", "u2"]);
    expect((await deliveries(id)).deliveries.map((delivery) => delivery.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("a disabled endpoint gets no new deliveries and its pending retries wait until it is enabled", async () => {
    const { id } = await createEndpoint();
    receiver.answerWith(503);
    await emitUserDeleted("u1");
    await tick();
    await s.api.PUT("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: id } }, body: { enabled: false } });
    expect(await endpointStatus(id)).toBe("disabled");
    await emitUserDeleted("u2");
    advanceSeconds(3600);
    await tick();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(id)).total).toBe(1);
    receiver.answerWith(200);
    await s.api.PUT("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: id } }, body: { enabled: true } });
    await s.services.webhooks.dispatcher.idle();
    expect(receiver.received.map((delivery) => delivery.body.data.user_identifier)).toEqual(["u1", "u1"]);
  });
});

describe("secret rotation", () => {
  it("signs with both secrets during the overlap, then with the new one only", async () => {
    const { id, secret: oldSecret } = await createEndpoint();
    s.clock.advance(1000);
    const { data: rotated } = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/rotate_secret", {
      params: { path: { endpoint_id: id } },
      body: {},
    });
    expect(rotated).toMatchObject({ secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: "2026-11-23T10:00:01Z" });
    expect(rotated!.secret).not.toBe(oldSecret);
    await emitUserDeleted("u1");
    await tick();
    const [during] = receiver.received as [ReceivedWebhook];
    expect(during.headers["partner-signature"]).toBe(`${hmac(during.rawBody, rotated!.secret)}, ${hmac(during.rawBody, oldSecret)}`);

    advanceSeconds(86400);
    await emitUserDeleted("u2");
    await tick();
    const after = receiver.received[1]!;
    expect(after.headers["partner-signature"]).toBe(hmac(after.rawBody, rotated!.secret));
    expect(await endpointStatus(id)).toBe("enabled");
    expect(
      (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: id } } })).data!
        .previous_secret_expires_at,
    ).toBeNull();
  });

  it("previous_secret_valid_for 0 ends the old secret at once; more than 7 days is refused", async () => {
    const { id } = await createEndpoint();
    const { data } = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/rotate_secret", {
      params: { path: { endpoint_id: id } },
      body: { previous_secret_valid_for: 0 },
    });
    expect(data!.previous_secret_expires_at).toBeNull();
    await emitUserDeleted();
    await tick();
    expect(receiver.received[0]!.headers["partner-signature"]).toBe(hmac(receiver.received[0]!.rawBody, data!.secret));
    const refused = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/rotate_secret", {
      params: { path: { endpoint_id: id } },
      body: { previous_secret_valid_for: 604801 },
    });
    expect(refused.response.status).toBe(422);
  });
});

describe("test events and redelivery", () => {
  it("sends a webhook.test event to that endpoint only, whatever it subscribes to", async () => {
    const { id } = await createEndpoint({ events: ["user.deleted"] });
    await createEndpoint({ url: other.url });
    const { data, response } = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: id } } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      endpoint_id: id,
      event_type: "webhook.test",
      status: "pending",
      attempts: [],
    });
    await tick();
    expect(receiver.received.map((delivery) => delivery.body)).toEqual([
      {
        id: data!.event_id,
        type: "webhook.test",
        created_at: "2026-11-22T10:00:00Z",
        sent_at: "2026-11-22T10:00:00Z",
        api_version: "v1",
        data: { endpoint_id: id },
      },
    ]);
    expect(other.received).toEqual([]);
  });

  it("redelivers an event with the same id (receivers de-duplicate by it) as a new delivery", async () => {
    const { id } = await createEndpoint();
    await emitUserDeleted();
    await tick();
    const [first] = (await deliveries(id)).deliveries;
    const { data, response } = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver", {
      params: { path: { endpoint_id: id, delivery_id: first!.id } },
    });
    expect(response.status).toBe(201);
    expect(data!.id).not.toBe(first!.id);
    await tick();
    expect(receiver.received.map((delivery) => delivery.body.id)).toEqual([first!.event_id, first!.event_id]);
    expect((await deliveries(id)).total).toBe(2);
  });

  it("404 for a delivery of another endpoint", async () => {
    const { id } = await createEndpoint();
    const { id: otherId } = await createEndpoint({ url: other.url });
    await emitUserDeleted();
    await tick();
    const [delivery] = (await deliveries(id)).deliveries;
    const { response } = await s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver", {
      params: { path: { endpoint_id: otherId, delivery_id: delivery!.id } },
    });
    expect(response.status).toBe(404);
  });

  it("pages the delivery log newest first", async () => {
    const { id } = await createEndpoint();
    for (let i = 0; i < 3; i++) await emitUserDeleted(`u${i}`);
    // A delivery is written when the dispatcher fans the outbox out, after the request.
    await tick();
    const page = (
      await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}/deliveries", {
        params: { path: { endpoint_id: id }, query: { limit: 2, offset: 1 } },
      })
    ).data!;
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.deliveries).toHaveLength(2);
  });

  it("keeps finished deliveries 30 days, pending ones until they finish", async () => {
    const { id } = await createEndpoint();
    await emitUserDeleted("u1");
    await tick();
    receiver.answerWith(500);
    await emitUserDeleted("u2");
    await tick();
    advanceSeconds(30 * 86400);
    expect(await s.services.webhooks.dispatcher.prune()).toBe(0);
    advanceSeconds(1);
    receiver.answerWith(500);
    expect(await s.services.webhooks.dispatcher.prune()).toBe(1);
    const log = await deliveries(id);
    expect(log.deliveries.map((delivery) => delivery.status)).toEqual(["pending"]);
  });
});
