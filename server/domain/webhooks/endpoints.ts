/**
 * What a partner does with its webhook endpoints, for both front doors (the API's handlers and the
 * dashboard): register, change, delete, rotate the secret, send a test event, read and redeliver
 * deliveries. Answers are the API's shapes, which the dashboard shows as they are.
 */
import { defaultWebhookEvents } from "../../../generated/operations.js";
import type { components } from "../../../generated/types/full.js";
import { type Clock, timestamp } from "../../platform/clock.js";
import type { Deployment } from "../../platform/deployment.js";
import type { WebhookDispatcher } from "./dispatcher.js";
import { apiErrors } from "../../platform/errors.js";
import { newId, randomBase62 } from "../../platform/ids.js";
import { webhookUrlProblem } from "./address-policy.js";
import { endpointOfPartner } from "./endpoint-access.js";
import type { SubscribableEventType, WebhookDeliveryRow, WebhookEndpointRow, WebhookStore } from "./webhook-store.js";

/** What webhook endpoints use of a deployment's services (application/context.ts has them all). */
export interface EndpointServices {
  webhooks: { store: WebhookStore; dispatcher: WebhookDispatcher };
  clock: Clock;
  deployment: Pick<Deployment, "environment">;
  /** Runs `task` once what the caller wrote is committed (application/context.ts). */
  afterCommit(task: () => void): void;
}

type Schemas = components["schemas"];

/** As Stripe: a partner's receivers are few; more is a mistake, not a need. */
export const MAX_ENDPOINTS = 16;
/** How long a rotated-out secret still signs when the caller does not say. */
export const DEFAULT_PREVIOUS_SECRET_SECONDS = 86_400;
const newSecret = () => `whsec_${randomBase62(32)}`;

export function endpointView(endpoint: WebhookEndpointRow, now: Date): Schemas["WebhookEndpoint"] {
  const previous = endpoint.previousSecret && endpoint.previousSecret.expiresAt > now ? endpoint.previousSecret : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events ?? [...defaultWebhookEvents],
    description: endpoint.description,
    status: !endpoint.enabled ? "disabled" : endpoint.failing ? "failing" : "enabled",
    created_at: timestamp(endpoint.createdAt),
    updated_at: timestamp(endpoint.updatedAt),
    previous_secret_expires_at: previous && timestamp(previous.expiresAt),
  };
}

export function deliveryView(delivery: WebhookDeliveryRow): Schemas["WebhookDelivery"] {
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

/** The URL, if the sender would send to it: the one address policy decides both. */
function checkedUrl(services: EndpointServices, url: string): string {
  const refusal = webhookUrlProblem(url, services.deployment.environment);
  if (refusal) throw apiErrors.invalidValue("url", refusal.code, refusal.message);
  return url;
}

export async function listEndpoints(services: EndpointServices, partnerId: string): Promise<Schemas["WebhookEndpoint"][]> {
  const now = services.clock.now();
  return (await services.webhooks.store.endpointsOf(partnerId)).map((endpoint) => endpointView(endpoint, now));
}

export interface EndpointInput {
  url: string;
  /** Subscribed types; null or absent: every type. */
  events?: SubscribableEventType[] | null;
  description?: string | null;
}

/** Registers an endpoint; the answer carries its secret, shown this once. */
export async function createEndpoint(
  services: EndpointServices,
  partnerId: string,
  input: EndpointInput,
): Promise<Schemas["WebhookEndpoint"] & { secret: string }> {
  const url = checkedUrl(services, input.url);
  if ((await services.webhooks.store.endpointsOf(partnerId)).length >= MAX_ENDPOINTS) {
    throw apiErrors.unprocessable(`A partner may register at most ${MAX_ENDPOINTS} webhook endpoints per environment`, {
      field: "url",
      code: "limit_reached",
    });
  }
  const now = services.clock.now();
  const endpoint: WebhookEndpointRow = {
    id: newId("whe"),
    partnerId,
    url,
    events: input.events ?? null,
    description: input.description ?? null,
    enabled: true,
    failing: false,
    secret: newSecret(),
    previousSecret: null,
    createdAt: now,
    updatedAt: now,
  };
  await services.webhooks.store.saveEndpoint(endpoint);
  return { ...endpointView(endpoint, now), secret: endpoint.secret };
}

export interface EndpointChanges {
  url?: string;
  events?: SubscribableEventType[];
  description?: string;
  enabled?: boolean;
}

export async function updateEndpoint(
  services: EndpointServices,
  partnerId: string,
  endpointId: string,
  changes: EndpointChanges,
): Promise<Schemas["WebhookEndpoint"]> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  const now = services.clock.now();
  const enabling = changes.enabled === true && !endpoint.enabled;
  const updated: WebhookEndpointRow = {
    ...endpoint,
    url: changes.url === undefined ? endpoint.url : checkedUrl(services, changes.url),
    events: changes.events ?? endpoint.events,
    description: changes.description ?? endpoint.description,
    enabled: changes.enabled ?? endpoint.enabled,
    // Enabling is the partner saying the receiver works again.
    failing: changes.enabled === true ? false : endpoint.failing,
    updatedAt: now,
  };
  await services.webhooks.store.saveEndpoint(updated);
  // Only sooner than the periodic tick, which retries a failed one (the database out of reach) and logs why.
  if (enabling) services.afterCommit(() => services.webhooks.dispatcher.tick().catch(() => undefined));
  return endpointView(updated, now);
}

export async function deleteEndpoint(services: EndpointServices, partnerId: string, endpointId: string): Promise<void> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  await services.webhooks.store.deleteEndpoint(endpoint.id);
}

/** A new secret, answered this once; the old one still signs for `previousValidSeconds` (0: not at all). */
export async function rotateSecret(
  services: EndpointServices,
  partnerId: string,
  endpointId: string,
  previousValidSeconds = DEFAULT_PREVIOUS_SECRET_SECONDS,
): Promise<Schemas["WebhookEndpoint"] & { secret: string }> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  const now = services.clock.now();
  const rotated: WebhookEndpointRow = {
    ...endpoint,
    secret: newSecret(),
    previousSecret:
      previousValidSeconds > 0 ? { secret: endpoint.secret, expiresAt: new Date(now.getTime() + previousValidSeconds * 1000) } : null,
    updatedAt: now,
  };
  await services.webhooks.store.saveEndpoint(rotated);
  return { ...endpointView(rotated, now), secret: rotated.secret };
}

export async function sendTestEvent(
  services: EndpointServices,
  partnerId: string,
  endpointId: string,
): Promise<Schemas["WebhookDelivery"]> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  const event = {
    id: newId("evt"),
    partnerId,
    type: "webhook.test" as const,
    createdAt: services.clock.now(),
    payload: { data: { endpoint_id: endpoint.id } },
  };
  return deliveryView(await services.webhooks.dispatcher.queue(endpoint, event, services.webhooks.store));
}

export async function listDeliveries(
  services: EndpointServices,
  partnerId: string,
  endpointId: string,
  page: { limit: number; offset: number },
): Promise<{ deliveries: Schemas["WebhookDelivery"][]; total: number }> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  const { deliveries, total } = await services.webhooks.store.deliveriesOf(endpoint.id, page);
  return { deliveries: deliveries.map(deliveryView), total };
}

/** Sends a delivery's event again, as a new delivery to the same endpoint. */
export async function redeliver(
  services: EndpointServices,
  partnerId: string,
  endpointId: string,
  deliveryId: string,
): Promise<Schemas["WebhookDelivery"]> {
  const endpoint = await endpointOfPartner(services, partnerId, endpointId);
  const original = await services.webhooks.store.findDelivery(deliveryId);
  if (!original || original.endpointId !== endpoint.id) throw apiErrors.notFound("Delivery", deliveryId);
  return deliveryView(await services.webhooks.dispatcher.queue(endpoint, original.event, services.webhooks.store));
}
