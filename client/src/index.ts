/** @partner-api/client: the typed client of the Partner Domain and DNS Service API. Webhook verification: `@partner-api/client/webhooks`. */
export { createPartnerClient } from "./client.js";
export type {
  ApiVariant,
  DnsRecordPagination,
  DomainPagination,
  EventPagination,
  PartnerClient,
  PartnerClientInfo,
  PartnerClientOptions,
  PathsOf,
  UserPagination,
  ZoneFiles,
} from "./client.js";
export { environmentOfKey, KEY_PREFIXES, SPEC_BASE_URLS } from "./environment.js";
export type { Environment } from "./environment.js";
export { PartnerClientConfigError } from "./config-error.js";
export type { ConfigErrorCode } from "./config-error.js";
export {
  errorMessages,
  hasErrorCode,
  isCodedError,
  isErrorList,
  isPreconditionFailed,
  isRateLimited,
  isValidationError,
  PartnerApiError,
} from "./errors.js";
export type { ApiError, ApiErrorBody, ApiErrorList, ErrorCode, PreconditionFailedError, RateLimitError } from "./errors.js";
export { RETRIED_METHODS, RETRIED_STATUSES } from "./retry.js";
export type { FetchFunction, RetryClock, RetryEvent, RetryOptions } from "./retry.js";
export type {
  DnsRecord,
  DnsRecordList,
  DnsRecordPaginationOptions,
  DomainList,
  DomainListItem,
  DomainPaginationOptions,
  Event,
  EventList,
  EventPaginationOptions,
  UserList,
  UserListItem,
  UserPaginationOptions,
} from "./pagination.js";
export { isZoneImportRejected } from "./zone-files.js";
export { KEY_SCOPES, requiredScopeOf, scopesAllow } from "./scopes.js";
export type { ApiKey, ApiKeyCreate, ApiKeyRestrictions, ApiKeyWithSecret, RequiredScope, Scope, ScopedOperationId } from "./scopes.js";
export type { ZoneExport, ZoneImportError, ZoneImportLine, ZoneImportOptions, ZoneImportRequest, ZoneImportResult } from "./zone-files.js";
export type { components, operations, paths, VariantD, VariantDPaths, VariantR, VariantRPaths } from "./api-types.js";
