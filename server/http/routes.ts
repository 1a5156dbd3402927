/** Dispatches each request to the handler of the operation it addresses. */
import type { Express, NextFunction, Request, Response } from "express";
import type { OperationHandlers } from "../../generated/handlers.js";
import { operationTable, type OperationId } from "../../generated/operations.js";
import { servicesOf, type RequestContext, type Services } from "../context.js";
import { apiErrors } from "../errors.js";
import { inTransaction } from "../transactions.js";
import { operationOf } from "./operation-match.js";

export function servedOperations(deployment: Pick<Services["deployment"], "variants" | "environment">): OperationId[] {
  return (Object.keys(operationTable) as OperationId[])
    .filter((id) => operationTable[id].variants.some((variant) => deployment.variants.includes(variant)))
    .filter((id) => (operationTable[id].environments as readonly string[]).includes(deployment.environment));
}

type AnyHandler = (input: { path: unknown; query: unknown; body: unknown }, context: RequestContext) => unknown;

interface OpenApiMatch {
  openapi?: { schema?: { operationId?: string } };
}

/**
 * After authentication and the rate limits: a request that addresses no operation is answered
 * here, so it never reaches the body parser, the validator or a handler.
 */
export function answerUnaddressed(req: Request, res: Response, next: NextFunction): void {
  const allow = res.locals.allow as readonly string[];
  if (operationOf(res.locals)) next();
  else if (allow.length === 0) next(apiErrors.noSuchOperation());
  else {
    res.setHeader("Allow", allow.join(", "));
    next(apiErrors.methodNotAllowed(req.method));
  }
}

/**
 * Writes that are not one transaction, because they change what lives beside the data: advancing
 * a sandbox clock is one atomic step of the clock store (a transaction run again would advance it
 * twice), and the changes it makes due run in transactions of their own
 * (server/scheduling/due-changes.ts); a reset deletes the data in a transaction, then sets the
 * clock back and forgets the rate-limit counters.
 */
const OUTSIDE_TRANSACTIONS: ReadonlySet<string> = new Set<OperationId>(["advanceSandboxClock", "resetSandbox"]);

/**
 * Writes of one domain's DNS records: every rule they check is about that domain, so they run
 * domain-locked (store/persistence.ts), not serializable: the domain they read is locked for them.
 */
const DOMAIN_LOCKED: ReadonlySet<string> = new Set<OperationId>([
  "createDnsRecord",
  "updateDnsRecord",
  "deleteDnsRecord",
  "createDomainDnsRecord",
  "updateDomainDnsRecord",
  "deleteDomainDnsRecord",
  "bulkCreateDomainDnsRecords",
  "applyDnsTemplate",
]);

/**
 * One dispatcher for every operation the deployment serves, from the operation matched once
 * (server/http/operation-match.ts). express-openapi-validator matches the request again to
 * validate it; the two must agree, and a disagreement is a defect of ours, not the caller's.
 * Every other operation that writes (any method but GET) runs as one transaction (server/transactions.ts).
 */
export function registerRoutes(app: Express, handlers: OperationHandlers<RequestContext>, services: Services): void {
  const served = new Map(servedOperations(services.deployment).map((id) => [id as string, handlers[id] as AnyHandler]));
  app.use(async (req: Request, res: Response) => {
    const operation = operationOf(res.locals)!;
    const validated = (req as OpenApiMatch).openapi?.schema?.operationId;
    if (validated !== operation.id)
      throw new Error(`the validator matched ${validated ?? "no operation"} where routing matched ${operation.id}`);
    const handler = served.get(operation.id)!;
    const input = { path: operation.pathParams, query: req.query, body: req.body };
    const partner = res.locals.partner ?? null;
    const partnerServices = partner ? servicesOf(services, partner.id) : services;
    const result = (await (req.method === "GET" || OUTSIDE_TRANSACTIONS.has(operation.id)
      ? handler(input, { partner, services: partnerServices })
      : inTransaction(
          partnerServices,
          async (tx) => handler(input, { partner, services: tx }),
          DOMAIN_LOCKED.has(operation.id) ? "domain-locked" : "serializable",
        ))) as { status: number; body?: unknown };
    if (result.body === undefined) res.status(result.status).end();
    else res.status(result.status).json(result.body);
  });
}
