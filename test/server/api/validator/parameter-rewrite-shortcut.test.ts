/**
 * The validator skipping its parameter rewrite where there is nothing to rewrite
 * (server/api/validator/parameter-rewrite-shortcut.ts) leaves every request as the rewrite would, for
 * every operation of every document the server loads, and skips it for the operations it should.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { createRequestAjv } from "express-openapi-validator/dist/framework/ajv/index.js";
import mutatorModule from "express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js";
import { operationTable, type OperationId } from "../../../../generated/operations.js";
import { createApp } from "../../../../server/assembly/app.js";
import {
  skipParameterRewritesWithNothingToRewrite,
  skipsParameterRewrite,
  validatorsOwnModifyRequest,
} from "../../../../server/api/validator/parameter-rewrite-shortcut.js";
import { prepareValidatorDocument, VALIDATOR_DOCUMENTS } from "../../../support/validator-preparation.js";

const DOCUMENTS = VALIDATOR_DOCUMENTS;

interface Mutator {
  modifyRequest(req: object): void;
}
const { RequestParameterMutator } = mutatorModule as unknown as {
  RequestParameterMutator: (new (
    ajv: unknown,
    apiDoc: unknown,
    path: string,
    parsed: unknown,
  ) => Mutator) & {
    prototype: Mutator;
  };
};

/** The request document and request Ajv the validator's request middleware works with. */
async function prepare(path: string) {
  const { validator, apiDoc } = await prepareValidatorDocument(path);
  return { apiDoc, ajv: createRequestAjv(apiDoc, { ...validator.ajvOpts.request, coerceTypes: true } as never) };
}

/** A request of the operation as the validator sees it: path parameters decoded, headers in lower case, an optional query. */
function requestOf(id: OperationId, schema: unknown, query: string) {
  const { path } = operationTable[id];
  const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, `${name}-value`]));
  const url = path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}-value`) + query;
  return {
    originalUrl: url,
    url,
    query: query === "" ? {} : Object.fromEntries(new URLSearchParams(query.slice(1))),
    params: { ...pathParams },
    headers: { "if-match": '"abc"', "idempotency-key": "k-1", "content-type": "application/json" },
    body: { name: "www" },
    openapi: { schema, pathParams },
  };
}

describe("the validator's parameter rewrite shortcut", () => {
  it("leaves every request of every operation as the rewrite leaves it, and skips the rewrite only without a query string", async () => {
    skipParameterRewritesWithNothingToRewrite();
    const patched = RequestParameterMutator.prototype.modifyRequest;
    expect(patched).not.toBe(validatorsOwnModifyRequest);
    let skipped = 0;
    let compared = 0;
    for (const path of DOCUMENTS) {
      const { apiDoc, ajv } = await prepare(path);
      for (const id of Object.keys(operationTable) as OperationId[]) {
        const { path: template, method } = operationTable[id];
        const schema = (apiDoc.paths as Record<string, Record<string, unknown>>)[template]?.[method];
        if (!schema) continue;
        for (const query of ["", "?limit=1", "?"]) {
          const theirs = requestOf(id, schema, query);
          const mine = requestOf(id, schema, query);
          const mutator = new RequestParameterMutator(ajv, apiDoc, template, {});
          const skips = skipsParameterRewrite(mutator as never, mine as never);
          validatorsOwnModifyRequest.call(mutator as never, theirs as never);
          patched.call(mutator, mine);
          const { openapi: _mine, ...mineSeen } = mine;
          const { openapi: _theirs, ...theirsSeen } = theirs;
          expect(isDeepStrictEqual(mineSeen, theirsSeen), `${path} ${id} ${query}`).toBe(true);
          if (query !== "") expect(skips, `${path} ${id} ${query}`).toBe(false);
          if (skips) skipped++;
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
    // The reads and writes of one resource have no query parameters: they skip the rewrite.
    expect(skipped).toBeGreaterThan(100);
  });

  it("is what the server's validator uses once createApp ran", () => {
    createApp({ environment: "sandbox", embedBaseUrl: "http://127.0.0.1:1", partners: [] });
    expect(RequestParameterMutator.prototype.modifyRequest).not.toBe(validatorsOwnModifyRequest);
  });
});
