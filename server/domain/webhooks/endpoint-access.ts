/** Finding a webhook endpoint on behalf of a partner: another partner's is as unknown as a missing one. */
import { apiErrors } from "../../platform/errors.js";
import type { WebhookEndpointRow, WebhookStore } from "./webhook-store.js";

/** What finding an endpoint uses of a deployment's services: the webhook store. */
export interface EndpointAccessServices {
  webhooks: { store: WebhookStore };
}

/** The partner's endpoint, or 404 (never 403: another partner's endpoints are not disclosed). */
export async function endpointOfPartner(
  services: EndpointAccessServices,
  partnerId: string,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  const endpoint = await services.webhooks.store.findEndpoint(endpointId);
  if (!endpoint || endpoint.partnerId !== partnerId) throw apiErrors.notFound("Webhook endpoint", endpointId);
  return endpoint;
}
