/**
 * Turns what the body parser and express-openapi-validator refuse into our documented errors:
 * 400 for a request's structure, 422 for a well-formed body value that breaks a rule.
 */
import { ApiError, apiErrors } from "../../platform/errors.js";

interface ValidatorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface ParserOrValidatorError {
  status?: number;
  type?: string;
  errors?: ValidatorItem[];
  headers?: Record<string, string>;
  message?: string;
}

/** Ajv keyword -> our details.code, and whether a body value breaking it is a 422. */
const KEYWORDS: Record<string, { code: string; valueRule: boolean }> = {
  required: { code: "missing_required_field", valueRule: false },
  minProperties: { code: "missing_required_field", valueRule: false },
  type: { code: "invalid_type", valueRule: false },
  additionalProperties: { code: "unknown_field", valueRule: false },
  format: { code: "invalid_format", valueRule: true },
  pattern: { code: "invalid_format", valueRule: true },
  maxLength: { code: "too_long", valueRule: true },
  minLength: { code: "too_short", valueRule: true },
  maxItems: { code: "too_long", valueRule: true },
  minItems: { code: "too_short", valueRule: true },
  minimum: { code: "out_of_range", valueRule: true },
  maximum: { code: "out_of_range", valueRule: true },
  enum: { code: "invalid_value", valueRule: true },
};

/**
 * A header's name as the spec and the service's own errors spell it (`If-Match`, `Idempotency-Key`):
 * the validator reports headers by Node's lower-case names.
 */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());

function fromValidationItem(item: ValidatorItem): ApiError {
  const [, location = "body", ...rest] = (item.path ?? "").split("/");
  const field = location === "headers" && rest.length === 1 ? headerName(rest[0]!) : rest.join(".") || location;
  // The validator reports an unknown query parameter without a keyword, by message only.
  const keyword = /^Unknown query parameter/.test(item.message ?? "")
    ? "additionalProperties"
    : (item.errorCode ?? "").replace(/\.openapi\.validation$/, "");
  const rule = KEYWORDS[keyword] ?? { code: "invalid_value", valueRule: false };
  const inBody = location === "body";
  const message =
    rule.code === "missing_required_field"
      ? `${field} is required`
      : rule.code === "unknown_field"
        ? `${field} is not an accepted field`
        : `${field} ${item.message ?? "is invalid"}`;
  return inBody && rule.valueRule ? apiErrors.invalidValue(field, rule.code, message) : apiErrors.badRequest(field, rule.code, message);
}

/** Null when the error is not one of the parser's or validator's (it is then a 500). */
export function requestErrorToApiError(error: unknown, referenceUrl: string | null = null): ApiError | null {
  if (error instanceof ApiError) return error;
  const e = error as ParserOrValidatorError;
  if (typeof e !== "object" || e === null || typeof e.status !== "number") return null;
  switch (e.type) {
    case "entity.too.large":
      return apiErrors.payloadTooLarge();
    case "entity.parse.failed":
      return apiErrors.badRequest("body", "malformed_json", "The body is not valid JSON");
    case "encoding.unsupported":
    case "charset.unsupported":
      return apiErrors.unsupportedMediaType("Request bodies must be UTF-8 application/json");
  }
  switch (e.status) {
    case 400:
      return e.errors?.[0] ? fromValidationItem(e.errors[0]) : apiErrors.invalidRequest(e.message ?? "Invalid request");
    case 404:
      return apiErrors.noSuchOperation(referenceUrl);
    case 413:
      return apiErrors.payloadTooLarge();
    case 415:
      return apiErrors.unsupportedMediaType("Request bodies must be application/json");
    default:
      return null;
  }
}
