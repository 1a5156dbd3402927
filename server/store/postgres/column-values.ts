/**
 * What the schema cannot say about a decoded row (generated/db-rows.ts): which of a text column's
 * values the service knows, and the shape of a jsonb column's document. Checked, so a value the
 * code does not know fails at the read that meets it, naming the column.
 */
import type { Environment } from "../../../generated/deployment.js";
import type { DbRow } from "../../../generated/db-rows.js";
import type { MemberRole } from "../../partners/accounts/account-store.js";
import type { LogoType } from "../../partners/branding/logo.js";
import type { EventType } from "../../platform/events.js";
import type { SubscribableEventType, WebhookDeliveryRow } from "../../domain/webhooks/webhook-store.js";
import type { DnsRecordRow } from "../../domain/dns/record-store.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import type { TransferRow } from "../../domain/transfers/transfer-store.js";

/** A text column's values, one key each: a value added to or removed from the union fails to compile here. */
type Members<T extends string> = Readonly<Record<T, true>>;

export const DOMAIN_STATUSES: Members<DomainRow["status"]> = { active: true, pending: true, expired: true, suspended: true };
export const TRANSFER_STATUSES: Members<TransferRow["status"]> = {
  pending: true,
  in_progress: true,
  completed: true,
  failed: true,
  cancelled: true,
};
export const RECORD_TYPES: Members<DnsRecordRow["type"]> = {
  A: true,
  AAAA: true,
  CNAME: true,
  MX: true,
  TXT: true,
  SRV: true,
  NS: true,
  CAA: true,
  ALIAS: true,
  HTTPS: true,
  SVCB: true,
  TLSA: true,
};
export const DELIVERY_STATUSES: Members<WebhookDeliveryRow["status"]> = { pending: true, succeeded: true, failed: true };
export const MEMBER_ROLES: Members<MemberRole> = { owner: true, developer: true };
export const ENVIRONMENT_NAMES: Members<Environment> = { sandbox: true, production: true };
export const LOGO_TYPES: Members<LogoType> = { "image/png": true, "image/jpeg": true, "image/webp": true };
export const SUBSCRIBABLE_EVENT_TYPES: Members<SubscribableEventType> = {
  "domain.registered": true,
  "domain.nameservers_changed": true,
  "domain.renewed": true,
  "domain.updated": true,
  "domain.expired": true,
  "transfer.status_changed": true,
  "dns_record.created": true,
  "dns_record.updated": true,
  "dns_record.deleted": true,
  "user.deleted": true,
  "domain.transfer_out.requested": true,
  "domain.transfer_out.completed": true,
  "domain.transfer_out.rejected": true,
  "domain.transfer_out.cancelled": true,
  "domain.connection_changed": true,
};
export const EVENT_TYPES: Members<EventType> = { ...SUBSCRIBABLE_EVENT_TYPES, "webhook.test": true };

/** `value`, one of `members`; `column` names where it was read. The value is quoted: these columns hold names, never secrets. */
export function oneOf<T extends string>(value: string, members: Members<T>, column: string): T {
  if (Object.hasOwn(members, value)) return value as T;
  throw new Error(`${column}: ${JSON.stringify(value)} is none of ${Object.keys(members).join(", ")}`);
}

/** Each of `values`, one of `members`. */
export const allOf = <T extends string>(values: readonly string[], members: Members<T>, column: string): T[] =>
  values.map((value) => oneOf(value, members, column));

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

/** A jsonb value that must be an object (not null, not an array). */
export function jsonObject(value: unknown, column: string): DbRow {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as DbRow;
  throw new Error(`${column}: expected a JSON object, found ${kindOf(value)}`);
}

/** A jsonb value that must be an array. */
export function jsonArray(value: unknown, column: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new Error(`${column}: expected a JSON array, found ${kindOf(value)}`);
}

/** A jsonb value that must be an array of strings. */
export function jsonStrings(value: unknown, column: string): string[] {
  const items = jsonArray(value, column);
  for (const item of items) if (typeof item !== "string") throw new Error(`${column}[]: expected string, found ${kindOf(item)}`);
  return items as string[];
}

/** A jsonb value that must be an object of strings (headers). */
export function jsonStringRecord(value: unknown, column: string): Record<string, string> {
  const object = jsonObject(value, column);
  for (const [key, item] of Object.entries(object))
    if (typeof item !== "string") throw new Error(`${column}.${key}: expected string, found ${kindOf(item)}`);
  return object as Record<string, string>;
}
