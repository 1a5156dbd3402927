/**
 * The validator's start-up shortcuts (server/api/validator/startup-shortcuts.ts) change how long its
 * preparation takes, never what it prepares: for every document the server loads, the prepared
 * request and response documents and the routes are the same with and without them.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { OpenAPISchemaValidator } from "express-openapi-validator/dist/framework/openapi.schema.validator.js";
import {
  applyValidatorStartupShortcuts,
  atPointer,
  hasOnlyLocalRefs,
  validatorStartupShortcutsApplied,
} from "../../../../server/api/validator/startup-shortcuts.js";
import { prepareValidatorDocument, VALIDATOR_DOCUMENTS } from "../../../support/validator-preparation.js";

const DOCUMENTS = VALIDATOR_DOCUMENTS;

/** The validator's preparation with the server's options (VALIDATOR_OPTIONS): routes, then the request and response documents. */
async function prepare(path: string): Promise<unknown> {
  const { spec, apiDoc, apiDocRes } = await prepareValidatorDocument(path);
  return { routes: spec.routes, basePaths: spec.basePaths, apiDoc, apiDocRes };
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
