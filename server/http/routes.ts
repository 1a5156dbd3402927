/** Registers one Express route per operation the deployment serves, from the generated table. */
import type { Express, NextFunction, Request, Response } from "express";
import type { OperationHandlers } from "../../generated/handlers.js";
import { operationTable, type OperationId, type Variant } from "../../generated/operations.js";
import { servicesOf, type RequestContext, type Services } from "../context.js";


/** Static segments before parameters, position by position (OpenAPI's path matching rule). */
function byStaticSegmentsFirst(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = left[i]!.startsWith("{");
    const rightParam = right[i]!.startsWith("{");
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return right.length - left.length;
}

export function servedOperations(deployment: Pick<Services["deployment"], "variants" | "environment">): OperationId[] {
  return (Object.keys(operationTable) as OperationId[])
    .filter((id) => operationTable[id].variants.some((variant) => deployment.variants.includes(variant)))
    .filter((id) => (operationTable[id].environments as readonly string[]).includes(deployment.environment));
}

/** Per HTTP method, the operations' path patterns in routing order (static segments first). */
const MATCHERS_BY_METHOD = new Map<string, Array<{ id: OperationId; pattern: RegExp }>>();
for (const id of (Object.keys(operationTable) as OperationId[]).sort((a, b) => byStaticSegmentsFirst(operationTable[a].path, operationTable[b].path))) {
  const method = operationTable[id].method.toUpperCase();
  const matchers = MATCHERS_BY_METHOD.get(method) ?? [];
  matchers.push({ id, pattern: new RegExp(`^${operationTable[id].path.replace(/\{[^}]+\}/g, "[^/]+")}$`) });
  MATCHERS_BY_METHOD.set(method, matchers);
}

/**
 * The operation a request addresses, found from the table: for the rate limits (before routing)
 * and for errors raised before the validator has matched it (a body that is not JSON). The first
 * match in routing order wins, as in routing; it runs on every request, so it never sorts.
 */
export function operationAt(method: string, path: string): OperationId | undefined {
  return MATCHERS_BY_METHOD.get(method)?.find((matcher) => matcher.pattern.test(path))?.id;
}

type AnyHandler = (input: { path: unknown; query: unknown; body: unknown }, context: RequestContext) => unknown;

interface OpenApiMatch {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

/**
 * One dispatcher for every operation the deployment serves. express-openapi-validator has already
 * matched the request to its operation (and decoded its path parameters), so matching it again
 * against one Express route per operation would cost a regular expression per route per request.
 * A request it matched to no served operation falls through to the unknown-route answer.
 */
export function registerRoutes(app: Express, handlers: OperationHandlers<RequestContext>, services: Services): void {
  const served = new Map(servedOperations(services.deployment).map((id) => [id as string, handlers[id] as AnyHandler]));
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const match = (req as OpenApiMatch).openapi;
    const handler = match?.schema?.operationId === undefined ? undefined : served.get(match.schema.operationId);
    if (!handler) return next();
    const result = (await handler(
      { path: match?.pathParams ?? {}, query: req.query, body: req.body },
      { partner: res.locals.partner ?? null, services: res.locals.partner ? servicesOf(services, res.locals.partner.id) : services },
    )) as { status: number; body?: unknown };
    if (result.body === undefined) res.status(result.status).end();
    else res.status(result.status).json(result.body);
  });
}

/** The methods some operation has on a path (for a 405's Allow), empty when the path is none of the API's. */
export function methodsAt(path: string): string[] {
  return [...MATCHERS_BY_METHOD].filter(([, matchers]) => matchers.some((matcher) => matcher.pattern.test(path))).map(([method]) => method);
}
