/**
 * How the server configures express-openapi-validator, in one place: `createApp` builds its
 * middleware from these, and the test that the start-up shortcuts prepare the same documents
 * (test/server/api/validator/validator-startup-shortcuts.test.ts) prepares them with these very options.
 */
import type { OpenApiValidatorOpts } from "express-openapi-validator/dist/framework/types.js";

export const VALIDATOR_OPTIONS = {
  // Exact input: unknown query parameters are refused, nothing is coerced and no default filled in
  // (the spec's "as given"; defaults: request-as-given.ts, as the validator has no option for them).
  validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
  validateResponses: true,
  // Keys are checked by our own middleware first (server/api/http/authenticate.ts).
  validateSecurity: false,
  // The published documents are linted and tested in CI; validating them again costs every start-up.
  validateApiSpec: false,
  validateFormats: true,
  ignoreUndocumented: false,
} as const satisfies Omit<OpenApiValidatorOpts, "apiSpec">;

/** What a benchmark may turn off to measure its cost; handlers rely on validated input otherwise. */
export interface ValidationSwitches {
  validateRequests?: boolean;
  validateResponses?: boolean;
}

/** The options for one document, with what a benchmark turned off. */
export function validatorOptions(
  apiSpec: object,
  { validateRequests = true, validateResponses = true }: ValidationSwitches = {},
): OpenApiValidatorOpts {
  return {
    ...VALIDATOR_OPTIONS,
    apiSpec: apiSpec as OpenApiValidatorOpts["apiSpec"],
    validateRequests: validateRequests && VALIDATOR_OPTIONS.validateRequests,
    validateResponses: validateResponses && VALIDATOR_OPTIONS.validateResponses,
  };
}
