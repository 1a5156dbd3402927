/**
 * What every delivery to the kit's receiver must be, computed independently of any server: the
 * signature from the description's scheme (HMAC-SHA256 of the raw body, lowercase hex, `sha256=`),
 * the headers the spec names, and the body against the event's schema in `x-webhooks`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { expect } from "expect";
import type { CheckContext } from "../check.js";
import { pointer, SchemaValidator } from "../documents.js";
import type { Delivery, WebhookReceiver } from "../webhook-receiver.js";
import { expectAnswer } from "./expectations.js";

/** Generous: a target may batch its deliveries. */
export const DELIVERY_TIMEOUT_MS = 60_000;

const SIGNATURE_VALUE = /^sha256=[0-9a-f]{64}$/;

/** `sha256=<hex>` of the raw body with `secret`, as the description's Events section states. */
export const signatureOf = (secret: string, rawBody: string) =>
  `sha256=${createHmac("sha256", secret).update(rawBody, "utf8").digest("hex")}`;

/** The values of `Partner-Signature`: one per active secret, `, `-separated. */
export function signaturesOf(delivery: Delivery): string[] {
  const header = delivery.headers["partner-signature"];
  if (typeof header !== "string") throw new Error(`a delivery to ${delivery.path} carries no Partner-Signature header`);
  const values = header.split(", ");
  for (const value of values)
    if (!SIGNATURE_VALUE.test(value)) throw new Error(`Partner-Signature value ${JSON.stringify(value)} is not sha256=<64 lowercase hex>`);
  return values;
}

/** Whether one of the delivery's signatures is the body's HMAC with `secret` (compared in constant time). */
export function signedWith(delivery: Delivery, secret: string): boolean {
  const expected = Buffer.from(signatureOf(secret, delivery.rawBody));
  return signaturesOf(delivery).some((value) => {
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Fails unless the delivery is a well-formed, signed event of the spec: headers, signature, schema. */
export function expectValidDelivery(context: CheckContext, delivery: Delivery, secret: string): void {
  const body = delivery.body;
  if (body === undefined) throw new Error(`a delivery to ${delivery.path} is not JSON: ${delivery.rawBody.slice(0, 200)}`);
  expect({ "content-type": delivery.headers["content-type"] }).toEqual({ "content-type": expect.stringMatching(/^application\/json\b/) });
  if (!signedWith(delivery, secret))
    throw new Error(
      `the ${body.type} delivery ${body.id} is not signed with the endpoint's secret: Partner-Signature ${delivery.headers["partner-signature"]}, expected ${signatureOf(secret, delivery.rawBody)} (HMAC-SHA256 of the raw body)`,
    );
  expect({
    "partner-event-id": delivery.headers["partner-event-id"],
    "partner-event-type": delivery.headers["partner-event-type"],
  }).toEqual({
    "partner-event-id": body.id,
    "partner-event-type": body.type,
  });
  const webhook = context.target.document["x-webhooks"]?.[body.type];
  if (!webhook) throw new Error(`a delivery has type ${JSON.stringify(body.type)}, which x-webhooks does not list`);
  const errors = validator(context).errorsAt(
    pointer("x-webhooks", body.type, "post", "requestBody", "content", "application/json", "schema"),
    body,
  );
  if (errors) throw new Error(`the ${body.type} delivery ${body.id} breaks its schema in x-webhooks: ${errors}`);
  // sent_at is a transport time on the real clock (x-webhooks), whatever a sandbox clock says.
  const sentAt = Date.parse(body.sent_at);
  if (!(Math.abs(sentAt - delivery.receivedAt) < 5 * 60_000))
    throw new Error(
      `the ${body.type} delivery ${body.id} has sent_at ${body.sent_at}, not the real time it was sent (${new Date(delivery.receivedAt).toISOString()})`,
    );
}

const validators = new WeakMap<object, SchemaValidator>();
function validator(context: CheckContext): SchemaValidator {
  let found = validators.get(context.target.document);
  if (!found) validators.set(context.target.document, (found = new SchemaValidator(context.target.document)));
  return found;
}

export interface RegisteredEndpoint {
  id: string;
  secret: string;
  /** The receiver's name for it: its deliveries are `receiver.deliveriesTo(name)`. */
  name: string;
  receiver: WebhookReceiver;
}

/** Registers an endpoint of its own at the kit's receiver (all event types unless `events`). */
export async function registerEndpoint(context: CheckContext, events?: string[]): Promise<RegisteredEndpoint> {
  const receiver = await context.receiver();
  const name = context.unique("hook");
  const created = await context.api.call("createWebhookEndpoint", {
    body: { url: receiver.urlFor(name), description: `conformance ${name}`, ...(events ? { events } : {}) },
  });
  expectAnswer(created, 201, undefined, "registering an endpoint at the kit's receiver");
  expect(created.body.secret).toMatch(/^whsec_/);
  return { id: created.body.id, secret: created.body.secret, name, receiver };
}

export async function removeEndpoint(context: CheckContext, endpoint: RegisteredEndpoint): Promise<void> {
  await context.api.call("deleteWebhookEndpoint", { path: { endpoint_id: endpoint.id } });
}

/** The endpoint's delivery log, newest first (one page of 100). */
export async function deliveryLog(context: CheckContext, endpointId: string): Promise<any[]> {
  const result = await context.api.call("listWebhookDeliveries", { path: { endpoint_id: endpointId }, query: { limit: 100 } });
  expectAnswer(result, 200, undefined, "reading the delivery log");
  return result.body.deliveries;
}

/**
 * Waits until the log shows what `done` asks (the target records an attempt after the receiver
 * answered), or fails after the deadline with the log.
 */
export async function waitForLog(
  context: CheckContext,
  endpointId: string,
  done: (deliveries: any[]) => boolean,
  what: string,
): Promise<any[]> {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const deliveries = await deliveryLog(context, endpointId);
    if (done(deliveries)) return deliveries;
    if (Date.now() > deadline)
      throw new Error(
        `the delivery log never showed ${what} within ${DELIVERY_TIMEOUT_MS / 1000} s: ${JSON.stringify(deliveries).slice(0, 600)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
