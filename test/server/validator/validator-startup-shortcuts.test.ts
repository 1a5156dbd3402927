/**
 * The validator's start-up shortcuts (server/validator/startup-shortcuts.ts) change how long its
 * preparation takes, never what it prepares: for every document the server loads, the prepared
 * request and response documents and the routes are the same with and without them.
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { OpenApiSpecLoader } from "express-openapi-validator/dist/framework/openapi.spec.loader.js";
import { OpenAPISchemaValidator } from "express-openapi-validator/dist/framework/openapi.schema.validator.js";
import { SchemaPreprocessor } from "express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { validatorDocumentPath } from "../../../generated/deployment.js";
import { validatorOptions } from "../../../server/validator/options.js";
import {
  applyValidatorStartupShortcuts,
  atPointer,
  hasOnlyLocalRefs,
  validatorStartupShortcutsApplied,
} from "../../../server/validator/startup-shortcuts.js";

const DOCUMENTS = (["R", "D", "full"] as const).flatMap((kind) =>
  (["production", "sandbox"] as const).map((environment) => validatorDocumentPath(kind, environment)),
);

/** The validator's preparation with the server's options (VALIDATOR_OPTIONS): routes, then the request and response documents. */
async function prepare(path: string): Promise<unknown> {
  const document = { ...(JSON.parse(readFileSync(path, "utf8")) as object), servers: [{ url: "/" }] };
  const options = validatorOptions(document);
  const validator = new OpenApiValidator(options);
  // As the validator's middleware() loads it, from the options the validator normalized.
  const { validateApiSpec, $refParser } = validator.options;
  const spec = await new OpenApiSpecLoader({ apiDoc: structuredClone(document) as never, validateApiSpec, $refParser }).load();
  const prepared = new SchemaPreprocessor(
    spec.apiDoc,
    validator.ajvOpts.preprocessor,
    validator.options.validateResponses as never,
  ).preProcess();
  return { routes: spec.routes, basePaths: spec.basePaths, apiDoc: prepared.apiDoc, apiDocRes: prepared.apiDocRes };
}

describe("the validator's start-up shortcuts", () => {
  it("prepare every document the server loads exactly as the validator does without them", async () => {
    // Applied once, they stay for the process: the comparison needs a process without them yet.
    expect(validatorStartupShortcutsApplied()).toBe(false);
    const without = await Promise.all(DOCUMENTS.map(prepare));
    applyValidatorStartupShortcuts();
    applyValidatorStartupShortcuts();
    expect(validatorStartupShortcutsApplied()).toBe(true);
    const withShortcuts = await Promise.all(DOCUMENTS.map(prepare));
    DOCUMENTS.forEach((path, i) => expect(isDeepStrictEqual(withShortcuts[i], without[i]), path).toBe(true));
  });

  it("still validate a document against the OpenAPI schema when asked to, compiling it then", () => {
    applyValidatorStartupShortcuts();
    const validator = new OpenAPISchemaValidator({ version: "3.0.3", validateApiSpec: true });
    expect(validator.validate({ openapi: "3.0.3" } as never).errors?.length).toBeGreaterThan(0);
    const valid = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {} };
    expect(validator.validate(valid as never).errors).toEqual([]);
  });

  it("bundle only documents with references to other files", () => {
    expect(hasOnlyLocalRefs({ a: { $ref: "#/components/schemas/A" }, b: [{ $ref: "#/x" }] })).toBe(true);
    expect(hasOnlyLocalRefs({ a: [{ b: { $ref: "common.yml#/components/schemas/A" } }] })).toBe(false);
    // A property called "$ref" holds a schema, not a reference: not knowing, the validator bundles.
    expect(hasOnlyLocalRefs({ properties: { $ref: { type: "string" } } })).toBe(false);
  });

  it("read local references by JSON pointer, escapes included", () => {
    const document = { components: { schemas: { A: { type: "string" }, "a/b~c": { type: "number" } } }, list: [{ x: 1 }] };
    expect(atPointer(document, "#/components/schemas/A")).toBe(document.components.schemas.A);
    expect(atPointer(document, "#/components/schemas/a~1b~0c")).toBe(document.components.schemas["a/b~c"]);
    expect(atPointer(document, "#/list/0/x")).toBe(1);
    expect(atPointer(document, "#/components/schemas/Missing")).toBeUndefined();
    expect(atPointer(document, "#/components/schemas/A/type/deeper")).toBeUndefined();
  });
});
