/**
 * Before validating a request, express-openapi-validator 5.6 rewrites its parameters into the
 * shapes the document describes (middlewares/parsers/req.parameter.mutator.js, `modifyRequest`):
 * arrays from delimited text, objects from brackets, JSON from `content` parameters. It does that
 * work on every request: it parses the whole URL again with the deprecated `url.parse`, then
 * dereferences and normalizes every parameter of the operation, when for most requests there is
 * nothing to rewrite. CPU profiles of the read and the write put it among the validator's largest
 * costs (bench/results/profiles/).
 *
 * Nothing is rewritten when the request has no query string and every parameter of the operation
 * is a path, header or cookie parameter of a plain type without `content` (no array, no object):
 * each branch of `modifyRequest` then leaves the request as it was. Such requests now skip it
 * (the operation's parameters are examined once, with the validator's own functions); every other
 * request goes through it unchanged. Like the other patches here, it replaces a member the
 * validator reads at call time (the mutator class's `modifyRequest`), once per process.
 * test/server/api/validator/parameter-rewrite-shortcut.test.ts runs both on every operation of every
 * document the server loads and requires the same request afterwards.
 */
import mutatorModule from "express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js";
import parserUtilModule from "express-openapi-validator/dist/middlewares/parsers/util.js";

interface Parameter {
  in: string;
  content?: unknown;
  style?: string;
  explode?: boolean;
}
interface OperationSchema {
  parameters?: unknown[];
}
interface MutatorState {
  ajv: unknown;
  _apiDocs: unknown;
}
type ModifyRequest = ((this: MutatorState, req: { originalUrl: string; openapi: { schema: OperationSchema } }) => void) & {
  [PATCHED]?: true;
};

const PATCHED = Symbol.for("partner-api.parameterRewriteShortcut");
const mutator = mutatorModule as unknown as { RequestParameterMutator: { prototype: { modifyRequest: ModifyRequest } } };
const parserUtil = parserUtilModule as unknown as {
  dereferenceParameter(apiDocs: unknown, parameter: unknown): Parameter;
  normalizeParameter(ajv: unknown, parameter: Parameter): { name: string; schema: { type?: unknown } };
};

/** The validator's own `modifyRequest`, read before any patch. */
export const validatorsOwnModifyRequest: ModifyRequest = mutator.RequestParameterMutator.prototype.modifyRequest;

const LOCATIONS_WITHOUT_REWRITES = new Set(["path", "header", "cookie"]);

/**
 * Whether `modifyRequest` changes nothing for a request of this operation without a query string:
 * its branches rewrite only `content` parameters, query parameters, arrays, and form-exploded ones.
 */
function nothingToRewriteWithoutQuery(state: MutatorState, schema: OperationSchema): boolean {
  return (schema.parameters ?? []).every((reference) => {
    const parameter = parserUtil.dereferenceParameter(state._apiDocs, reference);
    // As modifyRequest reads it: normalizing also sets the style and explode the document leaves out.
    const { schema: parameterSchema } = parserUtil.normalizeParameter(state.ajv, parameter);
    return (
      LOCATIONS_WITHOUT_REWRITES.has(parameter.in) &&
      parameter.content === undefined &&
      parameterSchema.type !== "array" &&
      parameterSchema.type !== "object" &&
      !(parameter.style === "form" && parameter.explode)
    );
  });
}

/** Per operation schema of the prepared document, whether a request of it without a query string skips the rewrite. */
const skippable = new WeakMap<OperationSchema, boolean>();

/** Whether the patched `modifyRequest` skips the validator's own for this request (the mutator's state read as it reads it). */
export function skipsParameterRewrite(state: MutatorState, req: Parameters<ModifyRequest>[0]): boolean {
  if (req.originalUrl.includes("?")) return false;
  const schema = req.openapi.schema;
  let skip = skippable.get(schema);
  if (skip === undefined) skippable.set(schema, (skip = nothingToRewriteWithoutQuery(state, schema)));
  return skip;
}

export function skipParameterRewritesWithNothingToRewrite(): void {
  const prototype = mutator.RequestParameterMutator.prototype;
  if (prototype.modifyRequest[PATCHED]) return;
  if (typeof validatorsOwnModifyRequest !== "function" || typeof parserUtil.normalizeParameter !== "function")
    throw new Error("express-openapi-validator's internals changed: review server/api/validator/parameter-rewrite-shortcut.ts");
  prototype.modifyRequest = Object.assign(
    function modifyRequest(this: MutatorState, req: Parameters<ModifyRequest>[0]) {
      if (!skipsParameterRewrite(this, req)) validatorsOwnModifyRequest.call(this, req);
    },
    { [PATCHED]: true as const },
  );
}
