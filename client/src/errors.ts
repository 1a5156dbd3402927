/**
 * The documented error bodies, and helpers that narrow the `error` of a call's result to one of
 * them. Calls never throw on an HTTP status (as in openapi-fetch): branch on `error`.
 */
import type { components } from "./api-types.js";

/** The coded shape, answered by every operation (`details.field` and `details.code` on 400 and 422). */
export type ApiError = components["schemas"]["Error"];
/** The coded shape of a 429, always with `details`. */
export type RateLimitError = components["schemas"]["RateLimitError"];
/** The list shape: 400/403/404/409/422 of Variant R's `/api/v1/dns_records` operations. */
export type ApiErrorList = components["schemas"]["ErrorList"];
export type ErrorCode = components["schemas"]["ErrorCode"];
/** A 412: the resource changed since it was read; `details.etag` is its current entity tag. */
export type PreconditionFailedError = components["schemas"]["PreconditionFailedError"];
export type ApiErrorBody = ApiError | RateLimitError | ApiErrorList | PreconditionFailedError;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The coded shape `{ error, message, details? }`. */
export function isCodedError(error: unknown): error is ApiError {
  return isObject(error) && typeof error.error === "string" && typeof error.message === "string";
}

/** The list shape `{ errors: string[] }`; its status (`response.status`) says what went wrong. */
export function isErrorList(error: unknown): error is ApiErrorList {
  return isObject(error) && Array.isArray(error.errors) && error.errors.every((item) => typeof item === "string");
}

/** A 429: `error.details.retry_after` seconds until the exhausted bucket has room again. */
export function isRateLimited(error: unknown): error is RateLimitError {
  if (!isCodedError(error) || error.error !== "rate_limit_exceeded") return false;
  const details: unknown = error.details;
  return (
    isObject(details) && typeof details.limit === "number" && typeof details.window === "number" && typeof details.retry_after === "number"
  );
}

/**
 * A 412 of an `If-Match` that no longer holds: someone changed the resource since you read it.
 * `error.details.etag` (also the answer's ETag header) is its current tag: read it again, decide, retry with that.
 */
export function isPreconditionFailed(error: unknown): error is PreconditionFailedError {
  return (
    isCodedError(error) &&
    (error.error as string) === "precondition_failed" &&
    isObject(error.details) &&
    typeof (error.details as Record<string, unknown>).etag === "string"
  );
}

/** A coded error with this `error` code, e.g. `hasErrorCode(error, "conflict")`. */
export function hasErrorCode<C extends ErrorCode>(error: unknown, code: C): error is ApiError & { error: C } {
  return isCodedError(error) && error.error === code;
}

/** A 400 or 422 about one field: `error.details.field` names it, `error.details.code` says what is wrong. */
export function isValidationError(error: unknown): error is ApiError & { error: "validation_error" } {
  return hasErrorCode(error, "validation_error");
}

/** The human-readable messages of either shape (for logs; branch on codes, not on these). */
export function errorMessages(error: unknown): string[] {
  if (isCodedError(error)) return [error.message];
  if (isErrorList(error)) return [...error.errors];
  if (typeof error === "string" && error.length > 0) return [error];
  return [];
}

/**
 * Thrown only where a result cannot be returned, i.e. by the pagination iterators: the failed
 * page's status, body and response.
 */
export class PartnerApiError extends Error {
  override readonly name = "PartnerApiError";
  readonly status: number;
  /** The error body as parsed by openapi-fetch: one of the documented shapes, or text from a proxy. */
  readonly body: unknown;
  readonly response: Response;
  /** `X-Request-Id`: quote it when asking for support. */
  readonly requestId: string | null;

  constructor(response: Response, body: unknown) {
    const code = isCodedError(body) ? ` ${body.error}` : "";
    const messages = errorMessages(body);
    super(`Partner API answered ${response.status}${code}${messages.length > 0 ? `: ${messages.join("; ")}` : ""}`);
    this.status = response.status;
    this.body = body;
    this.response = response;
    this.requestId = response.headers.get("X-Request-Id");
  }
}
