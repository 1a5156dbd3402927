/** Finding a webhook endpoint on behalf of a partner: another partner's is as unknown as a missing one. */
import type { Services } from "../context.js";
import { apiErrors } from "../errors.js";
import type { WebhookEndpointRow } from "./webhook-store.js";

/** The partner's endpoint, or 404 (never 403: another partner's endpoints are not disclosed). */
export async function endpointOfPartner(services: Services, partnerId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const endpoint = await services.webhooks.store.findEndpoint(endpointId);
  if (!endpoint || endpoint.partnerId !== partnerId) throw apiErrors.notFound("Webhook endpoint", endpointId);
  return endpoint;
}
