/** Dispatches each request to the handler of the operation it addresses. */
import type { Express, NextFunction, Request, Response } from "express";
import type { OperationHandlers } from "../../../generated/handlers.js";
import { operationTable, type OperationId } from "../../../generated/operations.js";
import { servicesOf, type RequestContext, type Services } from "../../application/context.js";
import { withKeyAccess } from "../../domain/access/key-access.js";
import { keyAccessOf } from "./authorize-scope.js";
import { ApiError, apiErrors, errorBody } from "../../platform/errors.js";
import {
  answerIsKept,
  canonicalPath,
  isKeyInUse,
  KEY_IN_USE_RETRY_AFTER_SECONDS,
  refusedReplay,
  replayableAnswer,
  requestFingerprint,
  takeKey,
  type IdempotentRequest,
  type KeyDecision,
} from "../../platform/idempotency/idempotent-requests.js";
import { inTransaction } from "../../application/transactions.js";
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
 * here, so it never reaches the body parser, the validator or a handler. Its 404 names where the
 * reference is (`referenceUrl`, when the deployment knows it).
 */
export function answerUnaddressed(referenceUrl: string | null): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const allow = res.locals.allow as readonly string[];
    if (operationOf(res.locals)) next();
    else if (allow.length === 0) next(apiErrors.noSuchOperation(referenceUrl));
    else {
      res.setHeader("Allow", allow.join(", "));
      next(apiErrors.methodNotAllowed(req.method));
    }
  };
}

/**
 * Writes that are not one transaction, because they change what lives beside the data: advancing
 * a sandbox clock is one atomic step of the clock store (a transaction run again would advance it
 * twice), and the changes it makes due run in transactions of their own
 * (server/application/due-changes.ts); a reset deletes the data in a transaction, then sets the
 * clock back and forgets the rate-limit counters. The key operations write the key store every
 * instance reads on every request, as the dashboard does, not the partner's data: inside a unit of
 * work they would wait on a second connection while the first is held (PGlite has only one).
 */
const OUTSIDE_TRANSACTIONS: ReadonlySet<string> = new Set<OperationId>([
  "advanceSandboxClock",
  "resetSandbox",
  "createApiKey",
  "rollApiKey",
  "revokeApiKey",
]);

/**
 * Writes of one domain's DNS records and delegation (nameservers, glue, DS records): every rule they
 * check is about that domain, and every other writer of those rows locks the domain too, so they run
 * domain-locked (store/persistence.ts), not serializable: the domain they read is locked for them.
 * Not the settings and registrar controls: the transfer code is written on a read that takes no lock.
 */
const DOMAIN_LOCKED: ReadonlySet<string> = new Set<OperationId>([
  "setDomainNameservers",
  "resetDomainNameservers",
  "setGlueRecord",
  "deleteGlueRecord",
  "createDsRecord",
  "deleteDsRecord",
  "createDnsRecord",
  "updateDnsRecord",
  "deleteDnsRecord",
  "createDomainDnsRecord",
  "updateDomainDnsRecord",
  "deleteDomainDnsRecord",
  "bulkCreateDomainDnsRecords",
  "applyDnsTemplate",
  "applyDnsChangeSet",
  "importDomainZone",
]);

/**
 * One dispatcher for every operation the deployment serves, from the operation matched once
 * (server/api/http/operation-match.ts). express-openapi-validator validates against that same match
 * (server/api/validator/matched-operation-metadata.ts) and falls back to its own lookup only where the
 * match has no route of its document; the two must agree, and a disagreement is a defect of ours,
 * not the caller's.
 * Every other operation that writes (any method but GET) runs as one transaction (server/application/transactions.ts).
 * A POST with an Idempotency-Key takes the key first and stores its answer in that transaction
 * (server/platform/idempotency/idempotent-requests.ts).
 */
export function registerRoutes(app: Express, handlers: OperationHandlers<RequestContext>, services: Services): void {
  const served = new Map(servedOperations(services.deployment).map((id) => [id as string, handlers[id] as AnyHandler]));
  app.use(async (req: Request, res: Response) => {
    const operation = operationOf(res.locals)!;
    const validated = (req as OpenApiMatch).openapi?.schema?.operationId;
    if (validated !== operation.id)
      throw new Error(`the validator matched ${validated ?? "no operation"} where routing matched ${operation.id}`);
    const handler = served.get(operation.id)!;
    const header = Object.fromEntries(operation.info.headerParameters.map((name) => [name, req.get(name)]));
    const input = { path: operation.pathParams, query: req.query, header, body: req.body };
    const partner = res.locals.partner ?? null;
    const partnerServices = partner ? servicesOf(services, partner.id) : services;
    const access = keyAccessOf(res.locals);
    // The key's restrictions go with the handler's async context: the domain layer's guards read them there.
    const run = (context: Services) =>
      withKeyAccess(access, () => handler(input, { partner, services: context }) as Promise<HandlerResult>);
    const inOneTransaction = req.method !== "GET" && !OUTSIDE_TRANSACTIONS.has(operation.id);
    const kind = DOMAIN_LOCKED.has(operation.id) ? "domain-locked" : "serializable";
    const key = req.method === "POST" && partner ? req.get("Idempotency-Key") : undefined;
    if (key === undefined) {
      send(res, await (inOneTransaction ? inTransaction(partnerServices, (tx) => run(tx), kind, partner?.id) : run(partnerServices)));
      return;
    }
    const request: IdempotentRequest = {
      scope: {
        partnerId: partner!.id,
        environment: services.deployment.environment,
        method: req.method,
        path: canonicalPath(operation.info.path, operation.pathParams),
        key,
      },
      fingerprint: requestFingerprint(req.query, req.body),
    };
    const keys = services.persistence.idempotency;
    let decision: KeyDecision;
    try {
      decision = await takeKey(keys, request, services.clock.now());
    } catch (error) {
      if (error instanceof ApiError && isKeyInUse(error)) res.setHeader("Retry-After", String(KEY_IN_USE_RETRY_AFTER_SECONDS));
      throw error;
    }
    if (!decision.run) {
      const refused = refusedReplay(decision.answer, operation.info.shownOnceFields);
      if (refused) throw refused;
      res.setHeader("Idempotent-Replayed", "true");
      send(res, { status: decision.answer.status, body: decision.answer.body ?? undefined, etag: decision.answer.headers.etag });
      return;
    }
    const { token } = decision;
    const keptAnswer = (result: HandlerResult) => replayableAnswer(result, operation.info.shownOnceFields);
    let result: HandlerResult;
    try {
      result = await (inOneTransaction
        ? inTransaction(
            partnerServices,
            async (tx, stores) => {
              const value = await run(tx);
              // Stored in the transaction of the writes: committed together or not at all.
              if (!(await stores.idempotency.complete(request.scope, token, keptAnswer(value)))) throw apiErrors.idempotencyKeyInUse();
              return value;
            },
            kind,
            partner!.id,
          )
        : run(partnerServices));
    } catch (error) {
      const refusal = error instanceof ApiError ? error : null;
      if (refusal && isKeyInUse(refusal)) res.setHeader("Retry-After", String(KEY_IN_USE_RETRY_AFTER_SECONDS));
      else if (refusal && answerIsKept(refusal.status)) {
        const listShape = (operation.info.listErrorStatuses as readonly number[]).includes(refusal.status);
        await keys.complete(request.scope, token, { status: refusal.status, body: errorBody(refusal, listShape), headers: {} });
      } else await keys.release(request.scope, token).catch(() => undefined);
      throw error;
    }
    // Work outside one transaction (OUTSIDE_TRANSACTIONS) stores its answer once it is done.
    if (!inOneTransaction) await keys.complete(request.scope, token, keptAnswer(result));
    send(res, result);
  });
}

interface HandlerResult {
  status: number;
  body?: unknown;
  /** The entity tag of the resource answered, where the operation documents an ETag. */
  etag?: string;
  /** A text answer (a zone file): sent as `mediaType`, or as text/plain to a client that asks for it. */
  text?: string;
  mediaType?: string;
  /** The file name of a text answer offered as a download. */
  attachment?: string;
}

function send(res: Response, result: HandlerResult): void {
  if (result.etag !== undefined) res.setHeader("ETag", result.etag);
  if (result.text !== undefined) {
    const mediaType = result.mediaType ?? "text/plain";
    // A browser or a pager asks for text/plain; every other Accept gets the documented type.
    const asked = res.req.accepts([mediaType, "text/plain"]) || mediaType;
    // Quoted always, as RFC 6266 writes it: the name is a domain's, so it needs no escaping.
    if (result.attachment !== undefined) res.setHeader("Content-Disposition", `attachment; filename="${result.attachment}"`);
    res.status(result.status).type(`${asked}; charset=utf-8`).send(result.text);
  } else if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}
