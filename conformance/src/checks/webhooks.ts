/**
 * Webhooks end to end: the target delivers to the kit's own receiver; every delivery is checked
 * against the documented scheme (signature computed here), the spec's schemas, the delivery log
 * and the events API.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { Delivery } from "../webhook-receiver.js";
import { causeEveryEvent, EVENT_CAUSING_OPERATIONS } from "./events-support.js";
import { expectAnswer, expectStatus } from "./expectations.js";
import {
  DELIVERY_TIMEOUT_MS,
  expectValidDelivery,
  registerEndpoint,
  removeEndpoint,
  signaturesOf,
  signedWith,
  waitForLog,
  type RegisteredEndpoint,
} from "./webhooks-support.js";

/** The first retry comes 1 minute after a failed attempt, with up to 10 % jitter (x-webhooks, Deliveries). */
const FIRST_RETRY_S = 60;
const JITTER = 0.1;

async function withEndpoint(context: CheckContext, events: string[] | undefined, body: (endpoint: RegisteredEndpoint) => Promise<void>) {
  const endpoint = await registerEndpoint(context, events);
  try {
    await body(endpoint);
  } finally {
    await removeEndpoint(context, endpoint);
  }
}

async function sendTest(context: CheckContext, endpoint: RegisteredEndpoint): Promise<any> {
  const sent = await context.api.call("sendTestWebhook", { path: { endpoint_id: endpoint.id } });
  expectAnswer(sent, 201, { endpoint_id: endpoint.id, event_type: "webhook.test" }, "sending a test event");
  return sent.body;
}

async function advanceClock(context: CheckContext, seconds: number): Promise<void> {
  expectStatus(await context.api.call("advanceSandboxClock", { body: { seconds } }), 200, "advancing the sandbox clock");
}

const distinctById = (deliveries: Delivery[]) => [...new Map(deliveries.map((d) => [d.body?.id, d])).values()];

export default defineChecks([
  {
    id: "webhooks.every-event-type-delivered",
    title:
      "each event type is delivered to a registered receiver, signed with its secret, valid against x-webhooks, logged and readable in the events API",
    needs: ["receiver", "sandbox"],
    operations: [...EVENT_CAUSING_OPERATIONS, "createWebhookEndpoint", "listWebhookDeliveries", "getEvent"],
    async run(context) {
      await withEndpoint(context, undefined, async (endpoint) => {
        const expected = await causeEveryEvent(context);
        // At least once: a delivery may come twice, so wait for each expected event, not for a count.
        const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
        const allArrived = () =>
          expected.every((event) =>
            endpoint.receiver.deliveriesTo(endpoint.name).some((d) => d.body?.type === event.type && event.isFrom(d.body)),
          );
        for (let count = expected.length; !allArrived(); count++)
          await endpoint.receiver.waitFor(endpoint.name, count, Math.max(1, deadline - Date.now()));
        const arrived = distinctById(endpoint.receiver.deliveriesTo(endpoint.name));
        for (const event of expected) {
          const matching = arrived.filter((d) => d.body?.type === event.type && event.isFrom(d.body));
          if (matching.length !== 1)
            throw new Error(
              `${event.cause} should deliver one ${event.type} event, ${matching.length} arrived (arrived: ${arrived.map((d) => d.body?.type).join(", ")})`,
            );
          const delivery = matching[0]!;
          expectValidDelivery(context, delivery, endpoint.secret);
          event.expectData(delivery.body);
          const stored = await context.api.call("getEvent", { path: { event_id: delivery.body.id } });
          expectAnswer(stored, 200, undefined, `reading the delivered ${event.type} event`);
          expect({ ...stored.body, sent_at: null }).toEqual({ ...delivery.body, sent_at: null });
        }
        // One endpoint's deliveries go out one at a time in the order the events happened.
        const order = arrived.map((d) => expected.findIndex((event) => event.type === d.body.type && event.isFrom(d.body)));
        expect(order).toEqual([...order].sort((a, b) => a - b));
        const ids = arrived.map((d) => d.body.id as string);
        const log = await waitForLog(
          context,
          endpoint.id,
          (deliveries) => ids.every((id) => deliveries.some((d) => d.event_id === id && d.status === "succeeded")),
          "every arrived event as succeeded",
        );
        for (const id of ids) {
          const entry = log.find((d) => d.event_id === id && d.status === "succeeded");
          expect(entry.attempts.at(-1)).toMatchObject({ status_code: 200 });
          expect(entry.event_type).toBe(arrived.find((d) => d.body.id === id)!.body.type);
        }
      });
    },
  },
  {
    id: "webhooks.registration-rules",
    title:
      "an endpoint's secret is shown only on creation; non-public addresses are refused with 422 non_public_address (other schemes, non-URLs invalid_format, credentials invalid_value), registering nothing; at most 16 endpoints; a deleted endpoint is gone",
    needs: ["state"],
    operations: ["createWebhookEndpoint", "getWebhookEndpoint", "listWebhookEndpoints", "deleteWebhookEndpoint"],
    async run(context) {
      const { api } = context;
      const refusedUrls: Array<[string, string]> = [
        ["http://10.1.2.3/hooks", "non_public_address"],
        ["http://169.254.169.254/latest", "non_public_address"],
        ["http://[::ffff:192.168.0.1]/hooks", "non_public_address"],
        ["http://[fd00::1]/hooks", "non_public_address"],
        ["https://metadata.google.internal/x", "non_public_address"],
        // Not a receiver's address at all, or one carrying credentials.
        ["ftp://example.com/hooks", "invalid_format"],
        ["not a url", "invalid_format"],
        ["https://user:pass@example.com/hooks", "invalid_value"],
      ];
      for (const [url, code] of refusedUrls) {
        const refused = await api.call("createWebhookEndpoint", { body: { url } });
        expectAnswer(refused, 422, { error: "validation_error", details: { field: "url", code } }, `registering ${url}`);
      }
      const made: string[] = [];
      try {
        const listed = await api.call("listWebhookEndpoints");
        expectAnswer(listed, 200);
        const registered = listed.body.endpoints.map((endpoint: { url: string }) => endpoint.url);
        expect(registered.filter((url: string) => refusedUrls.some(([refused]) => refused === url))).toEqual([]);
        for (const endpoint of listed.body.endpoints) expect(endpoint.secret).toBeUndefined();
        for (let count = listed.body.endpoints.length; count < 16; count++) {
          const created = await api.call("createWebhookEndpoint", {
            body: { url: `https://hooks.conformance.invalid/${context.unique("many")}` },
          });
          expectAnswer(created, 201, undefined, `registering endpoint ${count + 1} of 16`);
          made.push(created.body.id);
        }
        const seventeenth = await api.call("createWebhookEndpoint", {
          body: { url: `https://hooks.conformance.invalid/${context.unique("many")}` },
        });
        expectAnswer(seventeenth, 422, undefined, "registering a 17th endpoint");
        // The list is oldest first.
        const all = await api.call("listWebhookEndpoints");
        expectAnswer(all, 200);
        expect(all.body.endpoints.map((endpoint: any) => endpoint.id).filter((id: string) => made.includes(id))).toEqual(made);
        const read = await api.call("getWebhookEndpoint", { path: { endpoint_id: made[0] ?? listed.body.endpoints[0].id } });
        expectAnswer(read, 200);
        expect(read.body.secret).toBeUndefined();
      } finally {
        for (const id of made)
          expectStatus(await api.call("deleteWebhookEndpoint", { path: { endpoint_id: id } }), 204, "removing an endpoint");
      }
      if (made.length)
        expectAnswer(
          await api.call("getWebhookEndpoint", { path: { endpoint_id: made[0]! } }),
          404,
          { error: "not_found" },
          "a deleted endpoint",
        );
    },
  },
  {
    id: "webhooks.opt-in-types-named-only",
    title:
      "an endpoint that names no event types lists every subscribable type but those x-webhooks marks x-opt-in; one that names an opt-in type lists it",
    needs: ["receiver"],
    operations: ["createWebhookEndpoint"],
    async run(context) {
      const subscribable: string[] = context.target.document.components.schemas.WebhookEventTypeSubscribable.enum;
      const optIn = subscribable.filter((type) => context.target.document["x-webhooks"]?.[type]?.post?.["x-opt-in"] === true);
      const byDefault = await registerEndpoint(context);
      try {
        const read = await context.api.call("getWebhookEndpoint", { path: { endpoint_id: byDefault.id } });
        expectStatus(read, 200, "reading an endpoint that names no event types");
        expect([...read.body.events].sort()).toEqual(subscribable.filter((type) => !optIn.includes(type)).sort());
      } finally {
        await removeEndpoint(context, byDefault);
      }
      if (optIn.length === 0) return;
      const naming = await registerEndpoint(context, [optIn[0]!]);
      try {
        const read = await context.api.call("getWebhookEndpoint", { path: { endpoint_id: naming.id } });
        expectStatus(read, 200, `reading an endpoint that names ${optIn[0]}`);
        expect(read.body.events).toEqual([optIn[0]]);
      } finally {
        await removeEndpoint(context, naming);
      }
    },
  },
  {
    id: "webhooks.subscribed-types-only",
    title: "an endpoint subscribed to some event types is sent only those (and test events)",
    needs: ["receiver", "sandbox"],
    operations: ["createSandboxDomain", "createWebhookEndpoint", "sendTestWebhook"],
    async run(context) {
      await withEndpoint(context, ["domain.renewed"], async (endpoint) => {
        const user = context.unique("hook_user").replaceAll("-", "_");
        expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
        const domain = await context.api.call("createSandboxDomain", {
          body: { user_identifier: user, domain_name: `${context.unique("hooks")}.com`, years: 1 },
        });
        expectStatus(domain, 201, "registering a sandbox domain (domain.registered, not subscribed)");
        expectStatus(
          await context.api.call("renewDomain", { path: { domain_id: domain.body.id }, body: { years: 1 } }),
          200,
          "renewing (domain.renewed, subscribed)",
        );
        // One endpoint's deliveries go out in the order the events happened: once the test event sent
        // after them has arrived, anything the endpoint was going to get has arrived.
        await sendTest(context, endpoint);
        const arrived = await endpoint.receiver.waitFor(endpoint.name, 2, DELIVERY_TIMEOUT_MS);
        const types = distinctById(arrived).map((d) => d.body?.type);
        expect(types.sort()).toEqual(["domain.renewed", "webhook.test"]);
        for (const delivery of arrived) expectValidDelivery(context, delivery, endpoint.secret);
      });
    },
  },
  {
    id: "webhooks.disabled-endpoint-gets-nothing",
    title: "a disabled endpoint is sent no event that happens while it is disabled, also once enabled again",
    needs: ["receiver", "sandbox"],
    operations: ["createSandboxDomain", "createWebhookEndpoint", "updateWebhookEndpoint", "sendTestWebhook"],
    async run(context) {
      await withEndpoint(context, undefined, async (endpoint) => {
        const disabled = await context.api.call("updateWebhookEndpoint", { path: { endpoint_id: endpoint.id }, body: { enabled: false } });
        expectAnswer(disabled, 200, { status: "disabled" }, "disabling the endpoint");
        const user = context.unique("hook_user").replaceAll("-", "_");
        expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
        const domain = await context.api.call("createSandboxDomain", {
          body: { user_identifier: user, domain_name: `${context.unique("hooks")}.com`, years: 1 },
        });
        expectStatus(domain, 201, "registering a sandbox domain while the endpoint is disabled");
        const enabled = await context.api.call("updateWebhookEndpoint", { path: { endpoint_id: endpoint.id }, body: { enabled: true } });
        expectAnswer(enabled, 200, { status: "enabled" }, "enabling the endpoint again");
        // Deliveries to one endpoint keep the order of their events: a held domain.registered would come first.
        await sendTest(context, endpoint);
        const [first] = await endpoint.receiver.waitFor(endpoint.name, 1, DELIVERY_TIMEOUT_MS);
        expect(first!.body?.type).toBe("webhook.test");
      });
    },
  },
  {
    id: "webhooks.failed-delivery-retried",
    title: "a delivery answered 500 is logged with its status and retried after a minute (sandbox clock), same event id, signed again",
    needs: ["receiver", "sandbox"],
    operations: ["createWebhookEndpoint", "sendTestWebhook", "listWebhookDeliveries", "advanceSandboxClock"],
    async run(context) {
      await withEndpoint(context, undefined, async (endpoint) => {
        endpoint.receiver.answerWith(endpoint.name, 500);
        const queued = await sendTest(context, endpoint);
        const [first] = await endpoint.receiver.waitFor(endpoint.name, 1, DELIVERY_TIMEOUT_MS);
        expectValidDelivery(context, first!, endpoint.secret);
        const log = await waitForLog(
          context,
          endpoint.id,
          (deliveries) => deliveries.some((d) => d.id === queued.id && d.attempts.length === 1),
          "the failed attempt",
        );
        const failed = log.find((d) => d.id === queued.id);
        expect(failed).toMatchObject({ status: "pending", attempts: [{ status_code: 500 }] });
        expect(failed.attempts[0].error).toEqual(expect.any(String));
        const delay = (Date.parse(failed.next_attempt_at) - Date.parse(failed.attempts[0].attempted_at)) / 1000;
        if (!(delay >= FIRST_RETRY_S && delay <= FIRST_RETRY_S * (1 + JITTER) + 1))
          throw new Error(
            `the first retry is scheduled ${delay} s after the failed attempt, not 1 minute (+ up to 10 % jitter): ${JSON.stringify(failed)}`,
          );
        endpoint.receiver.answerWith(endpoint.name, 200);
        await advanceClock(context, Math.ceil(FIRST_RETRY_S * (1 + JITTER)) + 2);
        const [, retry] = await endpoint.receiver.waitFor(endpoint.name, 2, DELIVERY_TIMEOUT_MS);
        expectValidDelivery(context, retry!, endpoint.secret);
        expect(retry!.body.id).toBe(first!.body.id);
        expect(Date.parse(retry!.body.sent_at)).toBeGreaterThanOrEqual(Date.parse(first!.body.sent_at));
        const after = await waitForLog(
          context,
          endpoint.id,
          (deliveries) => deliveries.some((d) => d.id === queued.id && d.status === "succeeded"),
          "the retry as succeeded",
        );
        expect(after.find((d) => d.id === queued.id).attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
      });
    },
  },
  {
    id: "webhooks.rotated-secret-overlap",
    title: "after a rotation deliveries carry both signatures for previous_secret_valid_for seconds, then the new one only",
    needs: ["receiver", "sandbox"],
    operations: ["createWebhookEndpoint", "rotateWebhookSecret", "sendTestWebhook", "advanceSandboxClock", "getSandboxClock"],
    async run(context) {
      await withEndpoint(context, undefined, async (endpoint) => {
        const validFor = 600;
        const clock = await context.api.call("getSandboxClock");
        expectStatus(clock, 200);
        const rotated = await context.api.call("rotateWebhookSecret", {
          path: { endpoint_id: endpoint.id },
          body: { previous_secret_valid_for: validFor },
        });
        expectAnswer(rotated, 200, { id: endpoint.id }, "rotating the secret");
        const newSecret: string = rotated.body.secret;
        expect(newSecret).not.toBe(endpoint.secret);
        const endsIn = (Date.parse(rotated.body.previous_secret_expires_at) - Date.parse(clock.body.now)) / 1000;
        if (!(endsIn >= validFor && endsIn <= validFor + 60))
          throw new Error(
            `previous_secret_expires_at ${rotated.body.previous_secret_expires_at} is not ${validFor} s after the rotation (clock ${clock.body.now})`,
          );
        await sendTest(context, endpoint);
        const [during] = await endpoint.receiver.waitFor(endpoint.name, 1, DELIVERY_TIMEOUT_MS);
        expect(signaturesOf(during!)).toHaveLength(2);
        expectValidDelivery(context, during!, newSecret);
        if (!signedWith(during!, endpoint.secret))
          throw new Error(
            `during the overlap a delivery is not signed with the previous secret too: ${during!.headers["partner-signature"]}`,
          );
        await advanceClock(context, validFor + 60);
        await sendTest(context, endpoint);
        const [, after] = await endpoint.receiver.waitFor(endpoint.name, 2, DELIVERY_TIMEOUT_MS);
        expectValidDelivery(context, after!, newSecret);
        expect(signaturesOf(after!)).toHaveLength(1);
        if (signedWith(after!, endpoint.secret))
          throw new Error("the previous secret still signs after previous_secret_valid_for has passed");
      });
    },
  },
  {
    id: "webhooks.test-event-and-redelivery",
    title: "a test event arrives signed and is not an event of the service; a redelivery sends the same event again as a new delivery",
    needs: ["receiver"],
    operations: ["createWebhookEndpoint", "sendTestWebhook", "redeliverWebhook", "getEvent"],
    async run(context) {
      await withEndpoint(context, undefined, async (endpoint) => {
        const queued = await sendTest(context, endpoint);
        const [test] = await endpoint.receiver.waitFor(endpoint.name, 1, DELIVERY_TIMEOUT_MS);
        expectValidDelivery(context, test!, endpoint.secret);
        expect(test!.body).toMatchObject({ type: "webhook.test", id: queued.event_id, data: { endpoint_id: endpoint.id } });
        const stored = await context.api.call("getEvent", { path: { event_id: queued.event_id } });
        expectAnswer(stored, 404, { error: "not_found" }, "reading a test event, which is not kept");
        const again = await context.api.call("redeliverWebhook", { path: { endpoint_id: endpoint.id, delivery_id: queued.id } });
        expectAnswer(again, 201, { endpoint_id: endpoint.id, event_id: queued.event_id }, "redelivering");
        expect(again.body.id).not.toBe(queued.id);
        const [, redelivered] = await endpoint.receiver.waitFor(endpoint.name, 2, DELIVERY_TIMEOUT_MS);
        expectValidDelivery(context, redelivered!, endpoint.secret);
        expect(redelivered!.body.id).toBe(test!.body.id);
        const unknown = await context.api.call("redeliverWebhook", {
          path: { endpoint_id: endpoint.id, delivery_id: "whd_doesnotexist000000000000" },
        });
        expectAnswer(unknown, 404, { error: "not_found" }, "redelivering a delivery that does not exist");
      });
    },
  },
]);
