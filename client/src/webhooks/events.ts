/** The events a receiver is sent, typed from the spec's schemas and discriminated by `type`. */
import type { components } from "../api-types.js";

type Schemas = components["schemas"];

/** Which schema each event type's body follows (spec `x-webhooks`). */
export interface WebhookEventSchemas {
  "domain.registered": Schemas["DomainEvent"];
  "domain.renewed": Schemas["DomainEvent"];
  "domain.updated": Schemas["DomainEvent"];
  "domain.expired": Schemas["DomainEvent"];
  "domain.nameservers_changed": Schemas["DomainEvent"];
  "transfer.status_changed": Schemas["TransferEvent"];
  "domain.transfer_out.requested": Schemas["OutboundTransferEvent"];
  "domain.transfer_out.completed": Schemas["OutboundTransferEvent"];
  "domain.transfer_out.rejected": Schemas["OutboundTransferEvent"];
  "domain.transfer_out.cancelled": Schemas["OutboundTransferEvent"];
  "dns_record.created": Schemas["DnsRecordEvent"];
  "dns_record.updated": Schemas["DnsRecordEvent"];
  "dns_record.deleted": Schemas["DnsRecordEvent"];
  "user.deleted": Schemas["UserDeletedEvent"];
  "domain.connection_changed": Schemas["DomainConnectionEvent"];
  "webhook.test": Schemas["TestEvent"];
}

export type WebhookEventType = keyof WebhookEventSchemas;

/**
 * A verified event. New types may be added within v1 (the spec says so): handle an unknown
 * `type` by answering 2xx and ignoring it.
 */
export type WebhookEvent = { [T in WebhookEventType]: Omit<WebhookEventSchemas[T], "type"> & { type: T } }[WebhookEventType];
