/**
 * The one error registry (server/platform/errors.ts): a group of named constructors for every code of the
 * spec's ErrorCode, each answering with its group's code, and no ApiError made anywhere else.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError, apiErrors, errorBody, errorsByCode } from "../../../server/platform/errors.js";
import { loadDocument } from "../../support/openapi-document.js";

/** One call of every constructor, with the status it answers. */
const EXAMPLES: Record<keyof typeof apiErrors, [ApiError, number]> = {
  badRequest: [apiErrors.badRequest("records.0.ttl", "invalid_type", "records.0.ttl must be an integer"), 400],
  invalidRequest: [apiErrors.invalidRequest("Invalid request"), 400],
  invalidValue: [apiErrors.invalidValue("ttl", "out_of_range", "ttl must be at least 60"), 422],
  invalidValues: [
    apiErrors.invalidValues([{ field: "priority", code: "missing_required_field", message: "priority is required for SRV records" }]),
    422,
  ],
  unauthorized: [apiErrors.unauthorized(), 401],
  forbidden: [apiErrors.forbidden("domain"), 403],
  insufficientScope: [apiErrors.insufficientScope("dns:write", ["dns:read"]), 403],
  keyRestricted: [apiErrors.keyRestricted("record_names"), 403],
  notFound: [apiErrors.notFound("Domain", "dom_1"), 404],
  noSuchOperation: [apiErrors.noSuchOperation(), 404],
  methodNotAllowed: [apiErrors.methodNotAllowed("PATCH"), 405],
  conflict: [apiErrors.conflict("A CNAME record cannot share its name", { field: "name", code: "cname_conflict" }), 409],
  idempotencyKeyInUse: [apiErrors.idempotencyKeyInUse(), 409],
  secretShownOnce: [apiErrors.secretShownOnce("whe_1"), 409],
  idempotencyKeyReused: [apiErrors.idempotencyKeyReused(), 422],
  preconditionFailed: [apiErrors.preconditionFailed("DNS record", '"abc"'), 412],
  payloadTooLarge: [apiErrors.payloadTooLarge(), 413],
  unsupportedMediaType: [apiErrors.unsupportedMediaType("Request bodies must be application/json"), 415],
  unprocessable: [apiErrors.unprocessable("The domain is not active"), 422],
  rateLimitExceeded: [apiErrors.rateLimitExceeded(60, 60, 12), 429],
  internal: [apiErrors.internal(), 500],
  serviceUnavailable: [apiErrors.serviceUnavailable(), 503],
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the error registry", () => {
  it("has a group of constructors for every code of the spec's ErrorCode and the 503's and 412's own codes, and for no other", () => {
    const { schemas } = loadDocument("full").components;
    const specCodes = [
      ...(schemas.ErrorCode.enum as string[]),
      ...(schemas.ServiceUnavailableError.properties.error.enum as string[]),
      ...(schemas.PreconditionFailedError.properties.error.enum as string[]),
    ];
    expect(Object.keys(errorsByCode).sort()).toEqual([...specCodes].sort());
    for (const [code, constructors] of Object.entries(errorsByCode)) expect(Object.keys(constructors).length, code).toBeGreaterThan(0);
  });

  it("offers every constructor by its own name, no name in two groups", () => {
    const names = Object.values(errorsByCode).flatMap((constructors) => Object.keys(constructors));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(apiErrors).sort()).toEqual([...names].sort());
    expect(Object.keys(EXAMPLES).sort()).toEqual([...names].sort());
  });

  it("builds errors with the code of the constructor's group and the documented status", () => {
    for (const [code, constructors] of Object.entries(errorsByCode)) {
      for (const name of Object.keys(constructors) as Array<keyof typeof apiErrors>) {
        const [error, status] = EXAMPLES[name];
        expect(error, name).toBeInstanceOf(ApiError);
        expect(error.code, name).toBe(code);
        expect(error.status, name).toBe(status);
      }
    }
  });

  it("names every rule a value breaks: the list shape shows all, the coded shape the first", () => {
    const error = apiErrors.invalidValues([
      { field: "weight", code: "invalid_value", message: "weight is only used by SRV records" },
      { field: "port", code: "invalid_value", message: "port is only used by SRV records" },
    ]);
    expect(errorBody(error, true)).toEqual({ errors: ["weight is only used by SRV records", "port is only used by SRV records"] });
    expect(errorBody(error, false)).toEqual({
      error: "validation_error",
      message: "weight is only used by SRV records",
      details: { field: "weight", code: "invalid_value" },
    });
    expect(() => apiErrors.invalidValues([])).toThrow();
  });

  it("says how long to wait when a rate limit is spent", () => {
    expect(errorBody(apiErrors.rateLimitExceeded(10, 60, 7), false)).toEqual({
      error: "rate_limit_exceeded",
      message: "Rate limit of 10 requests per 60 seconds exceeded",
      details: { limit: 10, window: 60, retry_after: 7 },
    });
  });

  it("is the only place the server constructs an ApiError", () => {
    const elsewhere = sourceFiles("server").filter(
      (path) => path !== join("server", "platform", "errors.ts") && /\bnew ApiError\b/.test(readFileSync(path, "utf8")),
    );
    expect(elsewhere).toEqual([]);
  });
});
