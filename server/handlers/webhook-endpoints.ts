/** Webhook endpoints (an addition): registration, secrets, test events, the delivery log. */
import { endpointOfPartner } from "../webhooks/endpoint-access.js";
import type { OperationHandlers } from "../../generated/handlers.js";
import type { components } from "../../generated/types/full.js";
import { subscribableWebhookEvents } from "../../generated/operations.js";
import { timestamp } from "../clock.js";
import { partnerOf, type RequestContext, type Services } from "../context.js";
import { apiErrors } from "../errors.js";
import { newId, randomBase62 } from "../ids.js";
import { webhookUrlProblem } from "../webhooks/address-policy.js";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../webhooks/webhook-store.js";

type Handlers = OperationHandlers<RequestContext>;
type Schemas = components["schemas"];

/** As Stripe: a partner's receivers are few; more is a mistake, not a need. */
export const MAX_ENDPOINTS = 16;
const newSecret = () => `whsec_${randomBase62(32)}`;

function endpointView(endpoint: WebhookEndpointRow, now: Date): Schemas["WebhookEndpoint"] {
  const previous = endpoint.previousSecret && endpoint.previousSecret.expiresAt > now ? endpoint.previousSecret : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events ?? [...subscribableWebhookEvents],
    description: endpoint.description,
    status: !endpoint.enabled ? "disabled" : endpoint.failing ? "failing" : "enabled",
    created_at: timestamp(endpoint.createdAt),
    updated_at: timestamp(endpoint.updatedAt),
    previous_secret_expires_at: previous && timestamp(previous.expiresAt),
  };
}

function deliveryView(delivery: WebhookDeliveryRow): Schemas["WebhookDelivery"] {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.event.id,
    event_type: delivery.event.type,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: timestamp(attempt.attemptedAt),
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    })),
    next_attempt_at: delivery.nextAttemptAt && timestamp(delivery.nextAttemptAt),
    created_at: timestamp(delivery.createdAt),
  };
}

/** The partner's endpoint, or 404: another partner's endpoint is not even acknowledged to exist. */
/** The URL, if the sender would send to it: the one address policy decides both. */
function checkedUrl(services: Services, url: string): string {
  const refusal = webhookUrlProblem(url, services.deployment.environment);
  if (refusal) throw apiErrors.invalidValue("url", refusal.code, refusal.message);
  return url;
}

export const webhookEndpointHandlers: Pick<
  Handlers,
  | "listWebhookEndpoints"
  | "createWebhookEndpoint"
  | "getWebhookEndpoint"
  | "updateWebhookEndpoint"
  | "deleteWebhookEndpoint"
  | "rotateWebhookSecret"
  | "sendTestWebhook"
  | "listWebhookDeliveries"
  | "redeliverWebhook"
> = {
  listWebhookEndpoints: async (_input, context) => {
    const now = context.services.clock.now();
    const endpoints = await context.services.webhooks.store.endpointsOf(partnerOf(context).id);
    return { status: 200, body: { endpoints: endpoints.map((endpoint) => endpointView(endpoint, now)) } };
  },

  createWebhookEndpoint: async ({ body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const url = checkedUrl(services, body.url);
    if ((await services.webhooks.store.endpointsOf(partner.id)).length >= MAX_ENDPOINTS) {
      throw apiErrors.unprocessable(`A partner may register at most ${MAX_ENDPOINTS} webhook endpoints per environment`, {
        field: "url",
        code: "limit_reached",
      });
    }
    const now = services.clock.now();
    const endpoint: WebhookEndpointRow = {
      id: newId("whe"),
      partnerId: partner.id,
      url,
      events: body.events ?? null,
      description: body.description ?? null,
      enabled: true,
      failing: false,
      secret: newSecret(),
      previousSecret: null,
      createdAt: now,
      updatedAt: now,
    };
    await services.webhooks.store.saveEndpoint(endpoint);
    return { status: 201, body: { ...endpointView(endpoint, now), secret: endpoint.secret } };
  },

  getWebhookEndpoint: async ({ path }, context) => {
    const endpoint = await endpointOfPartner(context.services, partnerOf(context).id, path.endpoint_id);
    return { status: 200, body: endpointView(endpoint, context.services.clock.now()) };
  },

  updateWebhookEndpoint: async ({ path, body }, context) => {
    const { services } = context;
    const endpoint = await endpointOfPartner(services, partnerOf(context).id, path.endpoint_id);
    const now = services.clock.now();
    const enabling = body.enabled === true && !endpoint.enabled;
    const updated: WebhookEndpointRow = {
      ...endpoint,
      url: body.url === undefined ? endpoint.url : checkedUrl(services, body.url),
      events: body.events ?? endpoint.events,
      description: body.description ?? endpoint.description,
      enabled: body.enabled ?? endpoint.enabled,
      // Enabling is the partner saying the receiver works again.
      failing: body.enabled === true ? false : endpoint.failing,
      updatedAt: now,
    };
    await services.webhooks.store.saveEndpoint(updated);
    // Only sooner than the periodic tick, which retries a failed one (the database out of reach) and logs why.
    if (enabling) services.afterCommit(() => services.webhooks.dispatcher.tick().catch(() => undefined));
    return { status: 200, body: endpointView(updated, now) };
  },

  deleteWebhookEndpoint: async ({ path }, context) => {
    const endpoint = await endpointOfPartner(context.services, partnerOf(context).id, path.endpoint_id);
    await context.services.webhooks.store.deleteEndpoint(endpoint.id);
    return { status: 204 };
  },

  rotateWebhookSecret: async ({ path, body }, context) => {
    const { services } = context;
    const endpoint = await endpointOfPartner(services, partnerOf(context).id, path.endpoint_id);
    const now = services.clock.now();
    const validFor = body.previous_secret_valid_for ?? 86_400;
    const rotated: WebhookEndpointRow = {
      ...endpoint,
      secret: newSecret(),
      previousSecret: validFor > 0 ? { secret: endpoint.secret, expiresAt: new Date(now.getTime() + validFor * 1000) } : null,
      updatedAt: now,
    };
    await services.webhooks.store.saveEndpoint(rotated);
    return { status: 200, body: { ...endpointView(rotated, now), secret: rotated.secret } };
  },

  sendTestWebhook: async ({ path }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const endpoint = await endpointOfPartner(services, partner.id, path.endpoint_id);
    const event = {
      id: newId("evt"),
      partnerId: partner.id,
      type: "webhook.test" as const,
      createdAt: services.clock.now(),
      payload: { data: { endpoint_id: endpoint.id } },
    };
    const delivery = await services.webhooks.dispatcher.queue(endpoint, event, services.webhooks.store);
    return { status: 201, body: deliveryView(delivery) };
  },

  listWebhookDeliveries: async ({ path, query }, context) => {
    const { services } = context;
    const endpoint = await endpointOfPartner(services, partnerOf(context).id, path.endpoint_id);
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const { deliveries, total } = await services.webhooks.store.deliveriesOf(endpoint.id, { limit, offset });
    return { status: 200, body: { deliveries: deliveries.map(deliveryView), total, limit, offset } };
  },

  redeliverWebhook: async ({ path }, context) => {
    const { services } = context;
    const endpoint = await endpointOfPartner(services, partnerOf(context).id, path.endpoint_id);
    const original = await services.webhooks.store.findDelivery(path.delivery_id);
    if (!original || original.endpointId !== endpoint.id) throw apiErrors.notFound("Delivery", path.delivery_id);
    return { status: 201, body: deliveryView(await services.webhooks.dispatcher.queue(endpoint, original.event, services.webhooks.store)) };
  },
};
