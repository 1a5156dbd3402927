// Type-level tests, checked by `npm run typecheck`: the spec's WebhookEvent union narrows on `type`,
// as a client generated from the published document sees it. Each @ts-expect-error line must NOT compile.
import type { components } from "../../generated/types/full.js";

type WebhookEvent = components["schemas"]["WebhookEvent"];

export function domainOf(event: WebhookEvent): string | undefined {
  switch (event.type) {
    case "domain.registered":
      return event.data.name;
    case "transfer.status_changed":
      return event.data.domain_name;
    case "webhook.test":
      // @ts-expect-error a test event carries the endpoint, not a domain
      return event.data.name;
    default:
      return undefined;
  }
}

export const registered: WebhookEvent = {
  id: "evt_1",
  type: "domain.registered",
  created_at: "2026-11-22T10:00:00Z",
  sent_at: "2026-11-22T10:00:00Z",
  api_version: "v1",
  // @ts-expect-error a domain event's data is a domain, not a test event's endpoint
  data: { endpoint_id: "whe_1" },
};
