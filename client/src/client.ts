/** createPartnerClient: openapi-fetch over the generated `paths`, with the key's environment checked before any request. */
import createClient, { type Client } from "openapi-fetch";
import type { paths, VariantDPaths, VariantRPaths } from "./api-types.js";
import { refuseBrowser } from "./browser-guard.js";
import { resolveTarget, type Environment } from "./environment.js";
import { originGuard } from "./origin-guard.js";
import {
  eventPages,
  paginateEvents,
  type Event,
  type EventList,
  type EventPaginationOptions,
  domainPages,
  paginateDomains,
  type DomainList,
  type DomainListItem,
  type DomainPaginationOptions,
  dnsRecordPages,
  paginateDnsRecords,
  paginateUsers,
  userPages,
  type DnsRecord,
  type DnsRecordList,
  type DnsRecordPaginationOptions,
  type UserList,
  type UserListItem,
  type UserPaginationOptions,
} from "./pagination.js";
import { retryingFetch, type FetchFunction, type RetryOptions } from "./retry.js";
import {
  exportZone,
  importZone,
  type ZoneExport,
  type ZoneImportOptions,
  type ZoneImportRequest,
  type ZoneImportResult,
} from "./zone-files.js";

/** Which operations and shapes the types describe: a deployment serves R, D or both (`GET /api/v1/health` reports `variants`). */
export type ApiVariant = "R" | "D" | "both";

export type PathsOf<V extends ApiVariant> = V extends "R" ? VariantRPaths : V extends "D" ? VariantDPaths : paths;

export interface PartnerClientOptions<V extends ApiVariant = "both"> {
  /** `sk_sandbox_...` or `sk_live_...`; the prefix decides the environment. */
  apiKey: string;
  /** Must match the key's prefix when given: a guard against a key copied into the wrong configuration. */
  environment?: Environment;
  /** Default: the spec's sandbox address for sandbox keys; required for production (shown in the partner dashboard). */
  baseUrl?: string;
  /** Types only (default "both"): "R" or "D" narrows operations and shapes to what a deployment of that variant serves. */
  variant?: V;
  /** The fetch to send requests with (default: the global fetch at call time). */
  fetch?: FetchFunction;
  /** Off by default. `true` for the defaults, or settings; see RetryOptions. GET, HEAD and POST (with an Idempotency-Key), on 429 and 503. */
  retry?: boolean | RetryOptions;
  /** The client refuses to run in a browser, where the key would be exposed; see README. */
  dangerouslyAllowBrowser?: boolean;
}

/** What every variant's client adds to openapi-fetch's `GET`, `POST`, ... */
export interface PartnerClientInfo {
  readonly environment: Environment;
  readonly baseUrl: string;
}

/** The user list exists in Variant D (and so in "both"). */
export interface UserPagination {
  /** Every user, across pages; throws PartnerApiError if a page fails. */
  paginateUsers(options?: UserPaginationOptions): AsyncGenerator<UserListItem, void, undefined>;
  /** Every page, with `total`; throws PartnerApiError if a page fails. */
  userPages(options?: UserPaginationOptions): AsyncGenerator<UserList, void, undefined>;
}

/** The record list exists in Variant D (and so in "both"). */
export interface DnsRecordPagination {
  /** Every record of the domain, across pages; throws PartnerApiError if a page fails. */
  paginateDnsRecords(domainId: string, options?: DnsRecordPaginationOptions): AsyncGenerator<DnsRecord, void, undefined>;
  /** Every page of the domain's records, with `total`; throws PartnerApiError if a page fails. */
  dnsRecordPages(domainId: string, options?: DnsRecordPaginationOptions): AsyncGenerator<DnsRecordList, void, undefined>;
}

/** A user's domains are listed in both variants (Variant R answers `id` and `name` of each). */
export interface DomainPagination {
  /** Every domain of the user, across pages; throws PartnerApiError if a page fails. */
  paginateDomains(userIdentifier: string, options?: DomainPaginationOptions): AsyncGenerator<DomainListItem, void, undefined>;
  /** Every page of the user's domains, with `total`; throws PartnerApiError if a page fails. */
  domainPages(userIdentifier: string, options?: DomainPaginationOptions): AsyncGenerator<DomainList, void, undefined>;
}

/** The partner's events are listed in both variants. */
export interface EventPagination {
  /** Every event the service emitted for the partner, newest first, across pages; throws PartnerApiError if a page fails. */
  paginateEvents(options?: EventPaginationOptions): AsyncGenerator<Event, void, undefined>;
  /** Every page of the partner's events; throws PartnerApiError if a page fails. */
  eventPages(options?: EventPaginationOptions): AsyncGenerator<EventList, void, undefined>;
}

/** A domain's zone file out and in, in both variants. */
export interface ZoneFiles {
  /** The zone as text (`text/dns`), with its `etag` and file name; throws PartnerApiError if refused. */
  exportZone(domainId: string, signal?: AbortSignal): Promise<ZoneExport>;
  /** Imports a zone file (all or nothing); throws PartnerApiError if refused, `isZoneImportRejected` for the per-line report. */
  importZone(domainId: string, body: ZoneImportRequest, options?: ZoneImportOptions): Promise<ZoneImportResult>;
}

export type PartnerClient<V extends ApiVariant = "both"> = Client<PathsOf<V>> &
  PartnerClientInfo &
  DomainPagination &
  EventPagination &
  ZoneFiles &
  (V extends "R" ? unknown : UserPagination & DnsRecordPagination);

export function createPartnerClient<V extends ApiVariant = "both">(options: PartnerClientOptions<V>): PartnerClient<V> {
  refuseBrowser(options.dangerouslyAllowBrowser);
  const { environment, baseUrl } = resolveTarget(options);
  // Looked up per request, so a fetch replaced after creation (test interceptors) is used.
  const send: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  const fetch = options.retry ? retryingFetch(send, options.retry === true ? {} : options.retry) : send;
  // One client over the full types; the variant narrows only the static type (the wire format is the same).
  const client = createClient<paths>({ baseUrl, fetch, headers: { Authorization: `Bearer ${options.apiKey}` } });
  client.use(originGuard(baseUrl));
  const extras: PartnerClientInfo & DomainPagination & EventPagination & UserPagination & DnsRecordPagination & ZoneFiles = {
    environment,
    baseUrl,
    paginateEvents: (paging) => paginateEvents(client, paging),
    eventPages: (paging) => eventPages(client, paging),
    paginateDomains: (userIdentifier, paging) => paginateDomains(client, userIdentifier, paging),
    domainPages: (userIdentifier, paging) => domainPages(client, userIdentifier, paging),
    paginateUsers: (paging) => paginateUsers(client, paging),
    userPages: (paging) => userPages(client, paging),
    paginateDnsRecords: (domainId, paging) => paginateDnsRecords(client, domainId, paging),
    dnsRecordPages: (domainId, paging) => dnsRecordPages(client, domainId, paging),
    exportZone: (domainId, signal) => exportZone(client, domainId, signal),
    importZone: (domainId, body, zoneOptions) => importZone(client, domainId, body, zoneOptions),
  };
  return Object.assign(client, extras) as unknown as PartnerClient<V>;
}
