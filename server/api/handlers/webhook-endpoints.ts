/** Webhook endpoints (an addition): registration, secrets, test events, the delivery log (server/domain/webhooks/endpoints.ts). */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { endpointView } from "../../domain/webhooks/endpoints.js";
import * as endpoints from "../../domain/webhooks/endpoints.js";
import { endpointOfPartner } from "../../domain/webhooks/endpoint-access.js";
import { partnerOf, type RequestContext } from "../../application/context.js";

type Handlers = OperationHandlers<RequestContext>;

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
  listWebhookEndpoints: async (_input, context) => ({
    status: 200,
    body: { endpoints: await endpoints.listEndpoints(context.services, partnerOf(context).id) },
  }),

  createWebhookEndpoint: async ({ body }, context) => ({
    status: 201,
    body: await endpoints.createEndpoint(context.services, partnerOf(context).id, body),
  }),

  getWebhookEndpoint: async ({ path }, context) => {
    const endpoint = await endpointOfPartner(context.services, partnerOf(context).id, path.endpoint_id);
    return { status: 200, body: endpointView(endpoint, context.services.clock.now()) };
  },

  updateWebhookEndpoint: async ({ path, body }, context) => ({
    status: 200,
    body: await endpoints.updateEndpoint(context.services, partnerOf(context).id, path.endpoint_id, body),
  }),

  deleteWebhookEndpoint: async ({ path }, context) => {
    await endpoints.deleteEndpoint(context.services, partnerOf(context).id, path.endpoint_id);
    return { status: 204 };
  },

  rotateWebhookSecret: async ({ path, body }, context) => ({
    status: 200,
    body: await endpoints.rotateSecret(context.services, partnerOf(context).id, path.endpoint_id, body.previous_secret_valid_for),
  }),

  sendTestWebhook: async ({ path }, context) => ({
    status: 201,
    body: await endpoints.sendTestEvent(context.services, partnerOf(context).id, path.endpoint_id),
  }),

  listWebhookDeliveries: async ({ path, query }, context) => {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await endpoints.listDeliveries(context.services, partnerOf(context).id, path.endpoint_id, { limit, offset });
    return { status: 200, body: { ...page, limit, offset } };
  },

  redeliverWebhook: async ({ path }, context) => ({
    status: 201,
    body: await endpoints.redeliver(context.services, partnerOf(context).id, path.endpoint_id, path.delivery_id),
  }),
};
