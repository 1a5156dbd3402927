/** The one error registry: every error the API answers with has a stable code and status here. */
import type { components } from "../../generated/types/full.js";

/** The codes of the spec's ErrorCode, and the 503's and the 412's own (outside ErrorCode, which does not grow within v1). */
export type ErrorCode =
  | components["schemas"]["ErrorCode"]
  | components["schemas"]["ServiceUnavailableError"]["error"]
  | components["schemas"]["PreconditionFailedError"]["error"];

const STATUS_OF: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export interface ErrorDetails {
  field?: string;
  code?: string;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    status?: number,
    /** Every problem found, for the list shape; the coded shape names the first. */
    readonly messages?: string[],
  ) {
    super(message);
    this.status = status ?? STATUS_OF[code];
  }
}

/** A problem with one field: where (`details.field`), what (`details.code`), and a sentence for humans. */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

/**
 * The named constructors, grouped by the code they answer with: every code has its group
 * (test/server/platform/errors.test.ts checks them against the spec's enums), and nothing outside this
 * module constructs an ApiError, so messages, codes and statuses stay uniform.
 */
export const errorsByCode = {
  validation_error: {
    /** 400: the request's structure is wrong. */
    badRequest: (field: string, code: string, message: string) => new ApiError("validation_error", message, { field, code }),
    /** 400: the validator refused the request without naming a field. */
    invalidRequest: (message: string) => new ApiError("validation_error", message),
    /** 422: a well-formed value breaks a rule. */
    invalidValue: (field: string, code: string, message: string) => new ApiError("validation_error", message, { field, code }, 422),
    /** 422 naming every rule broken: the list shape shows all messages, the coded shape the first problem. */
    invalidValues: (problems: readonly FieldProblem[]) => {
      const [first] = problems;
      if (first === undefined) throw new Error("invalidValues needs the problems found");
      return new ApiError(
        "validation_error",
        first.message,
        { field: first.field, code: first.code },
        422,
        problems.map(({ message }) => message),
      );
    },
  },
  unauthorized: {
    unauthorized: () => new ApiError("unauthorized", "Invalid or missing API key"),
  },
  forbidden: {
    forbidden: (what: string) => new ApiError("forbidden", `You do not have access to this ${what}`),
    /** 403: the key lacks the operation's scope (`x-required-scope`); `unrestricted`: only a full key may call it. */
    insufficientScope: (requiredScope: string, keyScopes: readonly string[] | null) =>
      new ApiError(
        "forbidden",
        requiredScope === "unrestricted"
          ? "This API key is restricted; only a full key may call this operation"
          : `This API key lacks the scope ${requiredScope} this operation needs`,
        { code: "insufficient_scope", required_scope: requiredScope, key_scopes: keyScopes },
      ),
    /** 403: the key's restrictions (`domains`, `record_names`, `record_types`, `client_ips`) refuse the request. */
    keyRestricted: (restriction: string) =>
      new ApiError("forbidden", `This API key's ${restriction.replace("_", " ")} restriction does not allow this request`, {
        code: "key_restricted",
        restriction,
      }),
  },
  not_found: {
    notFound: (what: string, id: string) => new ApiError("not_found", `${what} ${id} not found`),
    /** 404 for a request that addresses no operation (see the spec's "Paths and methods"), naming the reference where it is known. */
    noSuchOperation: (referenceUrl: string | null = null) =>
      new ApiError("not_found", `No such operation; see the API reference${referenceUrl === null ? "" : ` at ${referenceUrl}`}`),
  },
  method_not_allowed: {
    methodNotAllowed: (method: string) => new ApiError("method_not_allowed", `${method} is not allowed on this path; see Allow`),
  },
  conflict: {
    conflict: (message: string, details?: ErrorDetails) => new ApiError("conflict", message, details),
    /** 409: the first request with this Idempotency-Key still runs; the answer carries Retry-After. */
    idempotencyKeyInUse: () =>
      new ApiError("conflict", "A request with this Idempotency-Key is still running; retry after the Retry-After seconds", {
        field: "Idempotency-Key",
        code: "idempotency_key_in_use",
      }),
    /** 409: the first request with this Idempotency-Key succeeded, and its answer held a secret shown once, never kept. */
    secretShownOnce: (id: string) =>
      new ApiError(
        "conflict",
        // An API key (`key_...`, issue 36) is shown once too: rolling it is how to learn a new one.
        id.startsWith("key_")
          ? `This Idempotency-Key already answered with API key ${id}, which is shown once and not kept: roll the key to get a new one`
          : `This Idempotency-Key already answered webhook endpoint ${id} with its signing secret, which is shown once and not kept: rotate the secret to learn a new one`,
        { field: "Idempotency-Key", code: "secret_shown_once" },
      ),
  },
  precondition_failed: {
    /** 412: If-Match names none of the resource's current entity tag; the answer carries it in ETag and details. */
    preconditionFailed: (what: string, currentEtag: string) =>
      new ApiError(
        "precondition_failed",
        `The ${what} changed since you read it; read it again and send the change with its current ETag`,
        { etag: currentEtag },
      ),
  },
  payload_too_large: {
    /** The limit is the one `createApp` gives the body parser. */
    payloadTooLarge: () => new ApiError("payload_too_large", "Request bodies are limited to 1 MiB"),
  },
  unsupported_media_type: {
    /** `accepted` says what is, e.g. "Request bodies must be UTF-8 application/json". */
    unsupportedMediaType: (accepted: string) => new ApiError("unsupported_media_type", accepted),
  },
  unprocessable_entity: {
    /** 422: valid field by field, but cannot be carried out as a whole. */
    unprocessable: (message: string, details?: ErrorDetails) => new ApiError("unprocessable_entity", message, details),
    /** 422: this Idempotency-Key came with another body; a new request needs a new key. */
    idempotencyKeyReused: () =>
      new ApiError("unprocessable_entity", "This Idempotency-Key was used with another request body; use a new key for a new request", {
        field: "Idempotency-Key",
        code: "idempotency_key_reused",
      }),
  },
  rate_limit_exceeded: {
    /** A bucket of `limit` requests per `window` seconds is spent; `retryAfter` seconds until it admits one again. */
    rateLimitExceeded: (limit: number, window: number, retryAfter: number) =>
      new ApiError("rate_limit_exceeded", `Rate limit of ${limit} requests per ${window} seconds exceeded`, {
        limit,
        window,
        retry_after: retryAfter,
      }),
  },
  internal_error: {
    internal: () => new ApiError("internal_error", "An unexpected error occurred; quote the X-Request-Id when contacting support"),
  },
  service_unavailable: {
    /** 503: the database cannot be reached for now (server/store/persistence.ts, StoreUnavailableError); the answer carries Retry-After. */
    serviceUnavailable: () =>
      new ApiError("service_unavailable", "The service is briefly unavailable; retry after the Retry-After seconds"),
  },
} satisfies { [Code in ErrorCode]: Record<string, (...args: never[]) => ApiError> };

/** Every named constructor, by name: `apiErrors.notFound("Domain", id)`. */
export const apiErrors = Object.assign({}, ...Object.values(errorsByCode)) as UnionToIntersection<(typeof errorsByCode)[ErrorCode]>;

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;

/** The documented body of an error, in the shape the operation uses for that status. */
export function errorBody(error: ApiError, listShape: boolean): object {
  if (listShape) return { errors: error.messages ?? [error.message] };
  return error.details
    ? { error: error.code, message: error.message, details: error.details }
    : { error: error.code, message: error.message };
}
