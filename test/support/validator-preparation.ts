/**
 * The validator's own preparation of the documents the server loads, with the server's options
 * (VALIDATOR_OPTIONS), as its middleware() does it: the tests of the patches in server/api/validator/
 * compare what the validator prepares or does with and without them.
 */
import { readFileSync } from "node:fs";
import { OpenApiSpecLoader } from "express-openapi-validator/dist/framework/openapi.spec.loader.js";
import { SchemaPreprocessor } from "express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { validatorDocumentPath } from "../../generated/deployment.js";
import { validatorOptions } from "../../server/api/validator/options.js";

/** Every validator document the server loads: each variant and both, in each environment. */
export const VALIDATOR_DOCUMENTS = (["R", "D", "full"] as const).flatMap((kind) =>
  (["production", "sandbox"] as const).map((environment) => validatorDocumentPath(kind, environment)),
);

/** The loaded spec (routes, base paths), the request and response documents, and the validator whose options prepared them. */
export async function prepareValidatorDocument(path: string) {
  const document = { ...(JSON.parse(readFileSync(path, "utf8")) as object), servers: [{ url: "/" }] };
  const validator = new OpenApiValidator(validatorOptions(document));
  // As the validator's middleware() loads it, from the options the validator normalized.
  const { validateApiSpec, $refParser } = validator.options;
  const spec = await new OpenApiSpecLoader({ apiDoc: structuredClone(document) as never, validateApiSpec, $refParser }).load();
  const prepared = new SchemaPreprocessor(
    spec.apiDoc,
    validator.ajvOpts.preprocessor,
    validator.options.validateResponses as never,
  ).preProcess();
  return { validator, spec, apiDoc: prepared.apiDoc, apiDocRes: prepared.apiDocRes };
}
