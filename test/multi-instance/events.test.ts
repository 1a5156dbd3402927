/**
 * The event history across two instances on one PostgreSQL database: an event one instance emits
 * is listed, read and replayed by the other; both fan the webhook outbox out, each event once.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { describe, expect, it, vi } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { useTwoInstances } from "../support/server-instances.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("the event history on two instances of one database", () => {
  const instances = useTwoInstances(databaseUrl!);
  const run = `e${Date.now().toString(36)}`;

  it("lists and reads on one instance the events the other emitted, newest first", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    for (const [i, instance] of instances.entries()) {
      const user = `${run}-gone-${i}`;
      expect((await instance.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
      expect((await instance.call("DELETE", `/api/v1/users/${user}`)).status).toBe(204);
    }
    for (const instance of instances) {
      const listed = await instance.call(
        "GET",
        `/api/v1/events?type=user.deleted&created_after=${encodeURIComponent(since.replace(/\.\d+Z$/, "Z"))}`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.events.map((event: { data: { user_identifier: string } }) => event.data.user_identifier)).toEqual([
        `${run}-gone-1`,
        `${run}-gone-0`,
      ]);
      const read = await instance.call("GET", `/api/v1/events/${listed.body.events[1].id}`);
      expect(read.body.data.user_identifier).toBe(`${run}-gone-0`);
    }
  });
});

describe.skipIf(!databaseUrl)("webhook fan-out on two instances of one database", () => {
  const instances = useTwoInstances(databaseUrl!);
  const run = `f${Date.now().toString(36)}`;

  it("delivers each event written through either instance once to every endpoint, in the order the events happened", async () => {
    const receivers = [await startWebhookReceiver(), await startWebhookReceiver()];
    try {
      for (const receiver of receivers)
        expect(
          (await instances[0]!.call("POST", "/api/v1/webhook_endpoints", { url: receiver.url, events: ["user.deleted"] })).status,
        ).toBe(201);
      const users = Array.from({ length: 12 }, (_, i) => `${run}-${String(i).padStart(2, "0")}`);
      // One after another, through the two instances in turn: both fan out, and must keep the order.
      for (const [i, user] of users.entries()) {
        const instance = instances[i % 2]!;
        expect((await instance.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
        expect((await instance.call("DELETE", `/api/v1/users/${user}`)).status).toBe(204);
      }
      for (const receiver of receivers) {
        await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(users.length), { timeout: scaled(30_000) });
        expect(receiver.received.map((delivery) => (delivery.body.data as { user_identifier: string }).user_identifier)).toEqual(users);
      }
    } finally {
      for (const receiver of receivers) await receiver.stop();
    }
  });
});
