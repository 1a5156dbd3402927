/** The events API: every event the service emitted, listed, read and delivered again (on each store). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newEvent } from "../../../../server/platform/events.js";
import { useTestServer } from "../../../support/test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../../support/webhook-receiver.js";

const s = useTestServer();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answerWith(200);
});
afterEach(async () => {
  await s.services.webhooks.dispatcher.idle();
});

const listEvents = (query: Record<string, unknown> = {}) => s.api.GET("/api/v1/events", { params: { query: query as never } });
/** Three events of two types, a minute apart: user.deleted, domain.registered, user.deleted. */
async function threeEvents() {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "gone-1" } });
  await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "gone-1" } } });
  s.clock.advance(60_000);
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
  s.clock.advance(60_000);
  await s.api.POST("/api/v1/users", { body: { user_identifier: "gone-2" } });
  await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "gone-2" } } });
}

describe("GET /api/v1/events", () => {
  it("lists every event emitted, though no endpoint subscribed, newest first, in the webhook envelope", async () => {
    await threeEvents();
    const { data, response } = await listEvents();
    expect(response.status).toBe(200);
    expect(data!.events.map((event) => event.type)).toEqual(["user.deleted", "domain.registered", "user.deleted"]);
    expect(data!.events[0]).toMatchObject({ type: "user.deleted", api_version: "v1", data: { user_identifier: "gone-2" } });
    expect(data!.next_cursor).toBeNull();
    expect(data!.events.map((event) => event.id)).toEqual(s.outbox.events.map((event) => event.id).reverse());
  });

  it("filters by type and by time", async () => {
    await threeEvents();
    expect((await listEvents({ type: ["domain.registered"] })).data!.events.map((event) => event.type)).toEqual(["domain.registered"]);
    const [, middle] = s.outbox.events;
    const after = (await listEvents({ created_after: middle!.createdAt.toISOString().replace(".000", "") })).data!.events;
    expect(after.map((event) => event.type)).toEqual(["user.deleted", "domain.registered"]);
    const before = (await listEvents({ created_before: middle!.createdAt.toISOString().replace(".000", "") })).data!.events;
    expect(before.map((event) => event.type)).toEqual(["user.deleted"]);
  });

  it("pages to the end with a cursor: each event once, newest first", async () => {
    await threeEvents();
    await threeEvents().catch(() => undefined);
    const whole = (await listEvents({ limit: 100 })).data!.events.map((event) => event.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listEvents>> = await listEvents(cursor ? { limit: 2, cursor } : { limit: 2 });
      seen.push(...page.data!.events.map((event) => event.id));
      cursor = page.data!.next_cursor;
    } while (cursor);
    expect(seen).toEqual(whole);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("refuses a tampered cursor and a cursor of other filters with 400 invalid_cursor", async () => {
    await threeEvents();
    const first = (await listEvents({ limit: 1 })).data!;
    for (const query of [{ cursor: "bad.cursor" }, { cursor: first.next_cursor, type: ["user.deleted"] }]) {
      const { response, error } = await listEvents(query);
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ details: { field: "cursor", code: "invalid_cursor" } });
    }
  });

  it("shows a partner its own events only", async () => {
    await threeEvents();
    expect((await s.otherPartner.GET("/api/v1/events")).data!.events).toEqual([]);
  });
});

describe("GET /api/v1/events/{event_id}", () => {
  it("answers one event as the list does, and 404 for another partner's or an unknown one", async () => {
    await threeEvents();
    const listed = (await listEvents()).data!.events[1]!;
    const { data } = await s.api.GET("/api/v1/events/{event_id}", { params: { path: { event_id: listed.id } } });
    expect({ ...data, sent_at: null }).toEqual({ ...listed, sent_at: null });
    expect((await s.otherPartner.GET("/api/v1/events/{event_id}", { params: { path: { event_id: listed.id } } })).response.status).toBe(
      404,
    );
    expect((await s.api.GET("/api/v1/events/{event_id}", { params: { path: { event_id: "evt_missing" } } })).response.status).toBe(404);
  });
});

describe("POST /api/v1/webhook_endpoints/{endpoint_id}/replay", () => {
  const createEndpoint = async (events?: string[]) =>
    (await s.api.POST("/api/v1/webhook_endpoints", { body: { url: receiver.url, ...(events ? { events } : {}) } as never })).data!;
  const replay = (endpoint_id: string, body: { since: string; until?: string; types?: string[] }) =>
    s.api.POST("/api/v1/webhook_endpoints/{endpoint_id}/replay", { params: { path: { endpoint_id } }, body: body as never });

  it("queues every event since a time that the endpoint subscribes to, oldest first, with the events' own ids", async () => {
    const start = s.clock.now().toISOString();
    await threeEvents();
    const endpoint = await createEndpoint(["user.deleted"]);
    const { data, response } = await replay(endpoint.id, { since: start });
    expect([response.status, data]).toEqual([200, { queued: 2 }]);
    await s.services.webhooks.dispatcher.tick();
    await s.services.webhooks.dispatcher.idle();
    const ids = s.outbox.events.filter((event) => event.type === "user.deleted").map((event) => event.id);
    expect(receiver.received.map((delivery) => delivery.body.id)).toEqual(ids);
  });

  it("narrows to the types asked for, and counts only the range [since, until)", async () => {
    const start = s.clock.now();
    await threeEvents();
    const endpoint = await createEndpoint();
    const firstMinute = new Date(start.getTime() + 60_000).toISOString();
    expect((await replay(endpoint.id, { since: start.toISOString(), until: firstMinute })).data).toEqual({ queued: 1 });
    expect((await replay(endpoint.id, { since: start.toISOString(), types: ["domain.registered"] })).data).toEqual({ queued: 1 });
  });

  it("refuses a range of more than 1000 events, queueing none, and an empty range", async () => {
    const endpoint = await createEndpoint();
    const at = s.clock.now();
    await s.services.persistence.events.saveEvents(
      Array.from({ length: 1001 }, () => newEvent("partner_a", "user.deleted", { data: { user_identifier: "x" } }, at)),
    );
    const { error, response } = await replay(endpoint.id, { since: new Date(at.getTime() - 1000).toISOString() });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "unprocessable_entity", details: { code: "too_many_events", limit: 1000 } });
    expect(
      (await s.api.GET("/api/v1/webhook_endpoints/{endpoint_id}/deliveries", { params: { path: { endpoint_id: endpoint.id } } })).data!
        .total,
    ).toBe(0);
    const empty = await replay(endpoint.id, { since: at.toISOString(), until: at.toISOString() });
    expect(empty.response.status).toBe(422);
  });

  it("answers 404 for another partner's endpoint", async () => {
    const endpoint = await createEndpoint();
    const { response } = await s.otherPartner.POST("/api/v1/webhook_endpoints/{endpoint_id}/replay", {
      params: { path: { endpoint_id: endpoint.id } },
      body: { since: "2026-01-01T00:00:00Z" },
    });
    expect(response.status).toBe(404);
  });
});
