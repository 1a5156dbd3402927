/**
 * The validator reading the operation the server matched (server/api/validator/matched-operation-metadata.ts)
 * builds the same `req.openapi` as its own lookup, for every operation of every document the server
 * loads, and leaves requests without a match to that lookup.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { OpenApiContext } from "express-openapi-validator/dist/framework/openapi.context.js";
import metadataModule from "express-openapi-validator/dist/middlewares/openapi.metadata.js";
import { operationTable, type OperationId } from "../../../../generated/operations.js";
import { createApp } from "../../../../server/assembly/app.js";
import { OperationMatcher, operationOf } from "../../../../server/api/http/operation-match.js";
import {
  matchedOperationMetadata,
  validatorsOwnMetadata,
  type ValidatorContext,
} from "../../../../server/api/validator/matched-operation-metadata.js";
import { prepareValidatorDocument, VALIDATOR_DOCUMENTS } from "../../../support/validator-preparation.js";

const DOCUMENTS = VALIDATOR_DOCUMENTS;

type Middleware = (req: object, res: object, next: (error?: unknown) => void) => void;
type MetadataFactory = (context: ValidatorContext, responseApiDoc: unknown) => Middleware;

/** The validator's context and response document for one document, prepared as its middleware prepares them. */
async function prepare(path: string) {
  const { spec, apiDocRes } = await prepareValidatorDocument(path);
  const context = new OpenApiContext(spec, undefined as never, false) as unknown as ValidatorContext;
  return { context, responseApiDoc: apiDocRes, routes: spec.routes };
}

/** Runs one metadata middleware on a request and says what it left on it (or what it threw). */
function run(middleware: Middleware, method: string, url: string, matcher: OperationMatcher) {
  const path = url.split("?")[0]!;
  const req = { method, url, originalUrl: url, path, baseUrl: "", params: {}, app: { enabled: () => true } } as Record<string, unknown>;
  const res = { locals: { operation: matcher.match(method, path).operation } };
  let outcome: unknown;
  try {
    middleware(req, res, (error) => (outcome = error ?? "next"));
  } catch (error) {
    outcome = (error as { status?: number }).status;
  }
  return { outcome, openapi: req.openapi, params: req.params, matched: operationOf(res.locals)?.id };
}

/** A concrete path for a template, with parameters that need decoding. */
const concrete = (template: string) => template.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}-%C3%A9%20x`);

describe("the validator reading the server's match", () => {
  it("builds what its own lookup builds, for every operation of every document the server loads", async () => {
    const patched = matchedOperationMetadata(operationOf) as unknown as MetadataFactory;
    const own = validatorsOwnMetadata as unknown as MetadataFactory;
    let compared = 0;
    for (const path of DOCUMENTS) {
      const { context, responseApiDoc, routes } = await prepare(path);
      const ids = (Object.keys(operationTable) as OperationId[]).filter((id) =>
        routes.some((route) => route.openApiRoute === operationTable[id].path && route.method === operationTable[id].method.toUpperCase()),
      );
      expect(ids.length, path).toBe(routes.length);
      const matcher = new OperationMatcher(ids);
      const [withMatch, withLookup] = [patched(context, responseApiDoc), own(context, responseApiDoc)];
      for (const id of ids) {
        const { method, path: template } = operationTable[id];
        const url = `${concrete(template)}?limit=1`;
        const mine = run(withMatch, method.toUpperCase(), url, matcher);
        const theirs = run(withLookup, method.toUpperCase(), url, matcher);
        expect(mine.matched, `${path} ${id}`).toBe(id);
        expect(mine.outcome, `${path} ${id}`).toBe("next");
        expect(isDeepStrictEqual(mine.openapi, theirs.openapi), `${path} ${id}`).toBe(true);
        expect(mine.params, `${path} ${id}`).toEqual(theirs.params);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("leaves a request the server matched to no operation to the validator's own lookup", async () => {
    const { context, responseApiDoc } = await prepare(DOCUMENTS[0]!);
    const middleware = (matchedOperationMetadata(operationOf) as unknown as MetadataFactory)(context, responseApiDoc);
    const unmatched = run(middleware, "GET", "/api/v1/no-such-thing", new OperationMatcher([]));
    expect(unmatched.matched).toBeUndefined();
    expect(unmatched.openapi).toBeUndefined();
    expect(unmatched.outcome).toBe(404);
  });

  it("is what the server's validator uses once createApp ran", () => {
    createApp({ environment: "sandbox", embedBaseUrl: "http://127.0.0.1:1", partners: [] });
    expect((metadataModule as unknown as { applyOpenApiMetadata: unknown }).applyOpenApiMetadata).not.toBe(validatorsOwnMetadata);
  });
});
