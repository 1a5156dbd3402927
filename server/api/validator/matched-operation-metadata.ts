/**
 * express-openapi-validator 5.6 finds the operation of every request again, from its URL: its
 * metadata middleware (middlewares/openapi.metadata.js) walks every route of the document, builds
 * an options object and runs a regular expression per route until one matches, then decodes the
 * parameters. The server has already made that decision once (server/api/http/operation-match.ts, which
 * every other step reads), so the walk is pure cost: the largest single function of the validator in
 * CPU profiles of the read, with validation on or off (bench/results/profiles/).
 *
 * This patch gives the validator the operation already matched: a request that carries one
 * (`res.locals.operation`) gets the same `req.openapi` the validator's own lookup builds (route,
 * schema, response schema, decoded path parameters), read from a table built once per route; any
 * other request goes through the validator's own middleware unchanged. Like the other patches here,
 * it replaces a member the validator reads from its module object at call time
 * (`applyOpenApiMetadata`, read when the middleware is first built), once per process, before
 * `createApp` builds the middleware. test/server/api/validator/matched-operation-metadata.test.ts checks,
 * for every operation of every document the server loads, that both build the same `req.openapi`.
 */
import metadataModule from "express-openapi-validator/dist/middlewares/openapi.metadata.js";
import type { NextFunction, Request, Response } from "express";

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** The operation a request was matched to (server/api/http/operation-match.ts's MatchedOperation, as read here). */
export interface MatchedOperationOfRequest {
  readonly id: string;
  readonly info: { readonly path: string; readonly method: string };
  /** Decoded path parameters by name. */
  readonly pathParams: Readonly<Record<string, string>>;
}

/** The parts of the validator's OpenApiContext read here (its compiled JavaScript; the types mark them private). */
export interface ValidatorContext {
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  openApiRouteMap: Record<string, { basePath: string; _openApiRoute: string; _expressRoute: string }>;
  serial: number;
}
type ResponseDocument = { paths: Record<string, Record<string, unknown>> } | undefined;
type ApplyOpenApiMetadata = ((context: ValidatorContext, responseApiDoc: ResponseDocument) => Middleware) & { [PATCHED]?: true };

/** What the validator's lookup finds for an operation, less the path parameters of the request. */
interface RouteMetadata {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  responseSchema: unknown;
}

const PATCHED = Symbol.for("partner-api.matchedOperationMetadata");
const metadata = metadataModule as unknown as { applyOpenApiMetadata: ApplyOpenApiMetadata };

/** The route of an OpenAPI path template and method, as the validator's own lookup would find it; undefined if the document has none. */
export function routeMetadataOf(
  context: ValidatorContext,
  responseApiDoc: ResponseDocument,
  template: string,
  method: string,
): RouteMetadata | undefined {
  for (const route of Object.values(context.openApiRouteMap)) {
    if (route._openApiRoute.substring(route.basePath.length) !== template) continue;
    const schema = context.apiDoc.paths[template]?.[method];
    if (schema === undefined) return undefined;
    return {
      expressRoute: route._expressRoute,
      openApiRoute: route._openApiRoute,
      schema,
      responseSchema: responseApiDoc?.paths[template]?.[method],
    };
  }
  return undefined;
}

/** The validator's own metadata middleware factory, read before any patch: module objects load once per process. */
export const validatorsOwnMetadata: ApplyOpenApiMetadata = metadata.applyOpenApiMetadata;

/**
 * The validator's metadata middleware for one document, taking the operation the server matched
 * where there is one (`matchedOperation` reads it from a response's locals, null when none).
 */
export function matchedOperationMetadata(
  matchedOperation: (locals: Record<string, unknown>) => MatchedOperationOfRequest | null,
): ApplyOpenApiMetadata {
  return (context, responseApiDoc) => {
    const lookup = validatorsOwnMetadata(context, responseApiDoc);
    const routes = new Map<string, RouteMetadata | undefined>();
    return (req, res, next) => {
      const operation = matchedOperation(res.locals);
      if (!operation) return lookup(req, res, next);
      let route = routes.get(operation.id);
      if (route === undefined && !routes.has(operation.id)) {
        route = routeMetadataOf(context, responseApiDoc, operation.info.path, operation.info.method.toLowerCase());
        routes.set(operation.id, route);
      }
      // An operation the validator's document lacks: its own lookup decides (and refuses) as before.
      if (!route) return lookup(req, res, next);
      const pathParams = { ...operation.pathParams };
      const openapi: Record<string, unknown> = {
        expressRoute: route.expressRoute,
        openApiRoute: route.openApiRoute,
        pathParams,
        schema: route.schema,
        serial: context.serial,
      };
      if (responseApiDoc) openapi._responseSchema = route.responseSchema;
      (req as Request & { openapi?: unknown }).openapi = openapi;
      req.params = pathParams;
      next();
    };
  };
}

/** Applies the patch for this process; the server has one way to read its match, so the first call's is kept. */
export function useMatchedOperationInValidator(
  matchedOperation: (locals: Record<string, unknown>) => MatchedOperationOfRequest | null,
): void {
  if (metadata.applyOpenApiMetadata[PATCHED]) return;
  if (typeof validatorsOwnMetadata !== "function")
    throw new Error("express-openapi-validator's internals changed: review server/api/validator/matched-operation-metadata.ts");
  metadata.applyOpenApiMetadata = Object.assign(matchedOperationMetadata(matchedOperation), { [PATCHED]: true as const });
}
