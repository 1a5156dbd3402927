/**
 * Walks of the API's paged lists: the partner's users and a domain's DNS records (Variant D), a user's domains and the
 * partner's events (both).
 *
 * Users, page after page of `GET /api/v1/users`, each after the one before by its `next_cursor`
 * (by `offset` from a server that answers none). Defaults favour a complete walk: `created_at`
 * ascending, so users created during the walk are appended at the end instead of shifting the pages
 * still to come (the API's own default order is newest first). A cursor continues after the last
 * user read, so a user deleted during the walk skips no other, and a deep page costs the server
 * what the first does.
 */
import type { Client } from "openapi-fetch";
import type { components, paths } from "./api-types.js";
import { PartnerApiError } from "./errors.js";

export type UserList = components["schemas"]["UserList"];
export type UserListItem = components["schemas"]["UserListItem"];
export type DnsRecordList = components["schemas"]["DnsRecordList"];
export type DnsRecord = components["schemas"]["DnsRecordD"];
export type DomainList = components["schemas"]["DomainList"];
export type DomainListItem = components["schemas"]["DomainListItem"];

export type EventList = components["schemas"]["EventList"];
export type Event = components["schemas"]["WebhookEvent"];

export interface EventPaginationOptions {
  /** Events per request, 1 to 100 (default 100). */
  pageSize?: number;
  /** Only events of these types. */
  types?: Array<components["schemas"]["WebhookEventTypeSubscribable"]>;
  /** Only events created at or after this time (ISO 8601). */
  createdAfter?: string;
  /** Only events created before this time (ISO 8601). */
  createdBefore?: string;
  signal?: AbortSignal;
}

/**
 * Each page of the partner's events (`GET /api/v1/events`), newest first, following `next_cursor`
 * to the end: every event stored throughout the walk comes once. Throws PartnerApiError when a page fails.
 */
export async function* eventPages(client: Client<paths>, options: EventPaginationOptions = {}): AsyncGenerator<EventList, void, undefined> {
  const base: { limit: number; type?: EventPaginationOptions["types"]; created_after?: string; created_before?: string } = {
    limit: options.pageSize ?? 100,
  };
  if (options.types) base.type = options.types;
  if (options.createdAfter) base.created_after = options.createdAfter;
  if (options.createdBefore) base.created_before = options.createdBefore;
  for (let cursor: string | null = null; ; ) {
    const query: typeof base & { cursor?: string } = cursor === null ? base : { ...base, cursor };
    const { data, error, response } = await client.GET("/api/v1/events", { params: { query }, signal: options.signal });
    if (!data) throw new PartnerApiError(response, error);
    yield data;
    if (data.next_cursor === null) return;
    cursor = data.next_cursor;
  }
}

/** Each event, across all pages, newest first. */
export async function* paginateEvents(client: Client<paths>, options: EventPaginationOptions = {}): AsyncGenerator<Event, void, undefined> {
  for await (const page of eventPages(client, options)) yield* page.events;
}

export interface DomainPaginationOptions {
  /** Domains per request, 1 to 100 (default 100, the API's maximum: fewer requests against `domain_retrieval`). */
  pageSize?: number;
  /** Only domains of this status. */
  status?: components["schemas"]["DomainStatus"];
  signal?: AbortSignal;
}

/**
 * Each page of a user's domains (`GET /api/v1/users/{user_identifier}/domains`), following
 * `next_cursor` to the end: every domain that exists throughout the walk comes once. Variant R
 * answers `id` and `name` of each. Throws PartnerApiError when a page fails.
 */
export async function* domainPages(
  client: Client<paths>,
  userIdentifier: string,
  options: DomainPaginationOptions = {},
): AsyncGenerator<DomainList, void, undefined> {
  const base: { limit: number; status?: DomainPaginationOptions["status"] } = { limit: options.pageSize ?? 100 };
  if (options.status) base.status = options.status;
  for (let cursor: string | null = null; ; ) {
    const query: typeof base & { cursor?: string } = cursor === null ? base : { ...base, cursor };
    const { data, error, response } = await client.GET("/api/v1/users/{user_identifier}/domains", {
      params: { path: { user_identifier: userIdentifier }, query },
      signal: options.signal,
    });
    if (!data) throw new PartnerApiError(response, error);
    yield data;
    if (!data.next_cursor) return;
    cursor = data.next_cursor;
  }
}

/** Each domain of the user, across all pages, newest purchase first. */
export async function* paginateDomains(
  client: Client<paths>,
  userIdentifier: string,
  options: DomainPaginationOptions = {},
): AsyncGenerator<DomainListItem, void, undefined> {
  for await (const page of domainPages(client, userIdentifier, options)) yield* page.domains;
}

export interface UserPaginationOptions {
  /** Users per request, 1 to 100 (default 100, the API's maximum: fewer requests against `user_retrieval`). */
  pageSize?: number;
  sort?: "created_at" | "last_login" | "domain_count";
  order?: "asc" | "desc";
  signal?: AbortSignal;
}

/** Each page as the API answers it (with `total`). Throws PartnerApiError when a page fails. */
export async function* userPages(client: Client<paths>, options: UserPaginationOptions = {}): AsyncGenerator<UserList, void, undefined> {
  const query = { limit: options.pageSize ?? 100, sort: options.sort ?? "created_at", order: options.order ?? "asc" } as const;
  let cursor: string | null = null;
  for (let offset = 0; ; ) {
    const { data, error, response } = await client.GET("/api/v1/users", {
      params: { query: cursor === null ? { ...query, offset } : { ...query, cursor } },
      signal: options.signal,
    });
    if (!data) throw new PartnerApiError(response, error);
    yield data;
    // An empty page ends the walk even if `total` says more: users were deleted meanwhile.
    if (data.users.length === 0) return;
    // A server before the cursor (an addition of 1.x) answers no next_cursor: the walk goes on by offset.
    const next = data.next_cursor as string | null | undefined;
    if (next !== undefined) {
      if (next === null) return;
      cursor = next;
      continue;
    }
    offset += data.users.length;
    if (offset >= data.total) return;
  }
}

/** Each user, across all pages. */
export async function* paginateUsers(
  client: Client<paths>,
  options: UserPaginationOptions = {},
): AsyncGenerator<UserListItem, void, undefined> {
  for await (const page of userPages(client, options)) yield* page.users;
}

export interface DnsRecordPaginationOptions {
  /** Records per request, 1 to 100 (default 100, the API's maximum: fewer requests against `dns_retrieval`). */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * Each page of a domain's records (`GET /api/v1/domains/{domain_id}/dns`, with `total`), following
 * `next_cursor` to the end. Cursor pages do not shift: every record that exists throughout the
 * walk comes once, whatever is created or deleted meanwhile. Throws PartnerApiError when a page fails.
 */
export async function* dnsRecordPages(
  client: Client<paths>,
  domainId: string,
  options: DnsRecordPaginationOptions = {},
): AsyncGenerator<DnsRecordList, void, undefined> {
  const limit = options.pageSize ?? 100;
  for (let cursor: string | null = null; ; ) {
    const query: { limit: number; cursor?: string } = cursor === null ? { limit } : { limit, cursor };
    const { data, error, response } = await client.GET("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId }, query },
      signal: options.signal,
    });
    if (!data) throw new PartnerApiError(response, error);
    yield data;
    if (data.next_cursor === null) return;
    cursor = data.next_cursor;
  }
}

/** Each record of the domain, across all pages, in the list's order. */
export async function* paginateDnsRecords(
  client: Client<paths>,
  domainId: string,
  options: DnsRecordPaginationOptions = {},
): AsyncGenerator<DnsRecord, void, undefined> {
  for await (const page of dnsRecordPages(client, domainId, options)) yield* page.records;
}
