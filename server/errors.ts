/** The one error registry: every error the API answers with has a stable code and status here. */
import type { components } from "../generated/types/full.js";

export type ErrorCode = components["schemas"]["ErrorCode"];

const STATUS_OF: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
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

/** Constructors for the errors handlers raise, so messages and codes stay uniform. */
export const apiErrors = {
  /** 400: the request's structure is wrong. */
  badRequest: (field: string, code: string, message: string) => new ApiError("validation_error", message, { field, code }),
  /** 422: a well-formed value breaks a rule. */
  invalidValue: (field: string, code: string, message: string) =>
    new ApiError("validation_error", message, { field, code }, 422),
  /** 422: valid field by field, but cannot be carried out as a whole. */
  unprocessable: (message: string, details?: ErrorDetails) => new ApiError("unprocessable_entity", message, details),
  unauthorized: () => new ApiError("unauthorized", "Invalid or missing API key"),
  forbidden: (what: string) => new ApiError("forbidden", `You do not have access to this ${what}`),
  notFound: (what: string, id: string) => new ApiError("not_found", `${what} ${id} not found`),
  conflict: (message: string, details?: ErrorDetails) => new ApiError("conflict", message, details),
  /** 404 for a request that addresses no operation (see the spec's "Paths and methods"). */
  noSuchOperation: () => new ApiError("not_found", "No such operation; see the API reference"),
  methodNotAllowed: (method: string) => new ApiError("method_not_allowed", `${method} is not allowed on this path; see Allow`),
  internal: () => new ApiError("internal_error", "An unexpected error occurred; quote the X-Request-Id when contacting support"),
};

/** The documented body of an error, in the shape the operation uses for that status. */
export function errorBody(error: ApiError, listShape: boolean): object {
  if (listShape) return { errors: error.messages ?? [error.message] };
  return error.details ? { error: error.code, message: error.message, details: error.details } : { error: error.code, message: error.message };
}
