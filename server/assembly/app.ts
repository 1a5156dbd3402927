/** createApp: the reference server as an Express app, validated against the spec both ways. */
import { readFileSync } from "node:fs";
import express, { type Express } from "express";
import { pino, type Logger } from "pino";
import * as OpenApiValidator from "express-openapi-validator";
import { validatorDocumentPath, type Environment, type Variant } from "../../generated/deployment.js";
import { KeyRing, type Partner } from "../partners/keys/api-keys.js";
import { FollowedPartnersFile, loggedPartnersFileEvents } from "../partners/keys/followed-partners-file.js";
import { systemClock, type Clock } from "../platform/clock.js";
import type { OperationHandlers } from "../../generated/handlers.js";
import { operationTable } from "../../generated/operations.js";
import type { RequestContext, Services } from "../application/context.js";
import { MemoryOutbox, outboxOutsideTransactions } from "../platform/events.js";
import { handlers } from "../api/handlers/index.js";
import { authenticate } from "../api/http/authenticate.js";
import { authorizeScope } from "../api/http/authorize-scope.js";
import { errorHandler } from "../api/http/error-handler.js";
import { checkIntegerQuery } from "../api/http/integer-query.js";
import { jsonBody } from "../api/http/json-body.js";
import { middlewareSeries } from "../api/http/middleware-series.js";
import { matchOperation, OperationMatcher, operationOf } from "../api/http/operation-match.js";
import { withLoggableErrors } from "../api/http/loggable-error.js";
import { assignRequestId } from "../api/http/request-id.js";
import { rateLimit } from "../api/http/rate-limit.js";
import { requestLog } from "../api/http/request-log.js";
import { recordRequests } from "../api/http/record-requests.js";
import { RequestRecorder } from "../partners/request-history/request-recorder.js";
import { securityHeaders } from "../api/http/security-headers.js";
import { answerUnaddressed, registerRoutes, servedOperations } from "../api/http/routes.js";
import { DEFAULT_RATE_LIMITS, type RateLimitTable } from "../platform/rate-limits/policy.js";
import { RateLimiter } from "../platform/rate-limits/rate-limiter.js";
import { PartnerClocks } from "../domain/sandbox/partner-clocks.js";
import { WebhookDispatcher } from "../domain/webhooks/dispatcher.js";
import { httpSender, type WebhookSender } from "../domain/webhooks/sender.js";
import { MemoryPersistence } from "../store/memory/memory-persistence.js";
import type { Persistence } from "../store/persistence.js";
import { storeUnavailableIn } from "../platform/store-unavailable.js";
import { validatorOptions } from "../api/validator/options.js";
import { useMatchedOperationInValidator } from "../api/validator/matched-operation-metadata.js";
import { skipParameterRewritesWithNothingToRewrite } from "../api/validator/parameter-rewrite-shortcut.js";
import { validateRequestsAsGiven } from "../api/validator/request-as-given.js";
import { memoizeValidatorRouteRegexps } from "../api/validator/route-regexp-cache.js";
import { applyValidatorStartupShortcuts } from "../api/validator/startup-shortcuts.js";

export interface AppConfig {
  environment: Environment;
  /** Variants served; default both. */
  variants?: readonly Variant[];
  embedBaseUrl: string;
  /**
   * Where people reach the partner dashboard, whose /docs/ is the developer portal: named by the
   * API's root (GET /) and its 404s. None where no dashboard is served.
   */
  dashboardUrl?: string;
  partners: ReadonlyArray<{
    partner: Partner;
    keys?: readonly string[];
    /** Origins allowed to frame the embedded interface of this partner's users (serialized, see framing/framing.ts). */
    embedOrigins?: readonly string[];
  }>;
  /**
   * The partners file (`npm run keys`) whose keys of this environment are accepted besides those of
   * `partners`; checked on every authenticated request, so a key created or revoked there counts
   * from the next request on (server/partners/keys/followed-partners-file.ts).
   */
  partnersFile?: string;
  clock?: Clock;
  /** Where data, webhook deliveries, rate-limit counters, sandbox clocks and stored keys live; default this process's memory. */
  persistence?: Persistence;
  /** Rate limits per key scope; default the service description's table. */
  rateLimits?: RateLimitTable;
  /** How webhooks are sent; default HTTP with the address policy of the environment. */
  webhookSender?: WebhookSender;
  /**
   * Send deliveries as soon as events are emitted (the running server). Off, deliveries wait for
   * `services.webhooks.dispatcher.tick()`, so tests decide when they go out.
   */
  deliverWebhooksPromptly?: boolean;
  /** The jitter source of webhook retries; tests fix it. */
  random?: () => number;
  /** How long an instance holds a webhook delivery it attempts (server/domain/webhooks/dispatcher.ts). */
  webhookLeaseMs?: number;
  /** Replaces handlers; for tests that need a server breaking the contract on purpose. */
  handlers?: Partial<OperationHandlers<RequestContext>>;
  /** Response validation is on unless a benchmark turns it off to measure its cost. */
  validateResponses?: boolean;
  /** Request validation too; off only in benchmarks (handlers rely on validated input). */
  validateRequests?: boolean;
  /**
   * Structured logs: one info line per request (server/api/http/request-log.ts) and every unexpected
   * error (a 500) at error level with its stack. Default silent; `npm start` logs to stdout.
   */
  logger?: Logger;
}

export interface PartnerApi {
  app: Express;
  services: Services;
  keys: KeyRing;
  outbox: MemoryOutbox;
  /** Writes the request log; flush before reading it in the same process, and at shutdown. */
  requests: RequestRecorder;
  /** Route templates of the operations served, as the request log names them. */
  routes: string[];
}

const parsedDocuments = new Map<string, Record<string, unknown>>();

/**
 * What the validator gets: the validator document (the published one without what only readers use,
 * see scripts/lib/validator-document.ts) of the variants served (R, D, or both: the full document)
 * in the environment.
 */
function documentFor(variants: readonly Variant[], environment: Environment): Record<string, unknown> {
  const path = validatorDocumentPath(variants.length === 2 ? "full" : variants[0]!, environment);
  let document = parsedDocuments.get(path);
  if (!document) parsedDocuments.set(path, (document = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>));
  // No copy needed although the validator resolves references in place: it deep-clones what it is
  // given first. The server variables name whole base addresses; this server serves the API at its root.
  return { ...document, servers: [{ url: "/" }] };
}

export function createApp(config: AppConfig): PartnerApi {
  // These adjust the validator's module objects once per process, before it is built (server/api/validator/README.md).
  memoizeValidatorRouteRegexps();
  applyValidatorStartupShortcuts();
  useMatchedOperationInValidator(operationOf);
  skipParameterRewritesWithNothingToRewrite();
  validateRequestsAsGiven();
  const variants = config.variants ?? (["R", "D"] as const);
  const clock = config.clock ?? systemClock;
  const outbox = new MemoryOutbox();
  const persistence = config.persistence ?? new MemoryPersistence();
  const dashboardUrl = config.dashboardUrl?.replace(/\/$/, "") ?? null;
  // The stores are read through `services` at each use: tests swap them for fresh ones between cases.
  const clocks = new PartnerClocks(clock, config.environment, () => services.persistence.clockOffsets);
  const dispatcher = new WebhookDispatcher({
    store: () => services.webhooks.store,
    clocks,
    environment: config.environment,
    send: config.webhookSender ?? httpSender(config.environment),
    random: config.random,
    leaseMs: config.webhookLeaseMs,
    connections: () => services.persistence.connections,
  });
  const services: Services = {
    persistence,
    store: persistence.store,
    events: persistence.events,
    clock,
    outbox: outboxOutsideTransactions,
    eventLog: outbox,
    clocks,
    rateLimitStore: persistence.rateLimits,
    webhooks: { store: persistence.webhooks, dispatcher },
    afterCommit: (task) => task(),
    deployment: {
      environment: config.environment,
      variants,
      embedBaseUrl: config.embedBaseUrl.replace(/\/$/, ""),
      embedOrigins: new Map(config.partners.map(({ partner, embedOrigins = [] }) => [partner.id, embedOrigins])),
      dashboardUrl,
      referenceUrl: dashboardUrl && `${dashboardUrl}/docs/`,
    },
  };
  // Outbox entries were written with the change that caused them (server/application/transactions.ts); this fans them out and
  // sends them sooner, one tick for all the events of a commit (server/domain/webhooks/dispatcher.ts).
  if (config.deliverWebhooksPromptly) outbox.subscribe(() => services.webhooks.dispatcher.prompt());
  const logger = withLoggableErrors(config.logger ?? pino({ level: "silent" }));
  const keys = new KeyRing(
    config.environment,
    () => services.persistence.apiKeys,
    () => clock.now(),
    (error) =>
      logger.warn(
        storeUnavailableIn(error) ? { reason: storeUnavailableIn(error)!.message } : { err: error },
        "cannot record a key's last use",
      ),
  );
  const requests = new RequestRecorder(
    () => services.persistence.requestHistory,
    () => services.persistence.kind !== "memory",
    // Once per outage; a database out of reach is expected in operation, so its reason without a stack.
    (error) =>
      logger.warn(
        storeUnavailableIn(error) ? { reason: storeUnavailableIn(error)!.message } : { err: error },
        "cannot write the request log; its records are kept for the next try",
      ),
  );
  for (const { partner, keys: plain = [] } of config.partners) {
    plain.forEach((key) => keys.addKey(partner, key));
  }
  if (config.partnersFile !== undefined)
    keys.follow(new FollowedPartnersFile(config.partnersFile, config.environment, loggedPartnersFileEvents(logger)));
  const matcher = new OperationMatcher(servedOperations(services.deployment));

  const app = express();
  app.disable("x-powered-by");
  // Read by express-openapi-validator's own route lookup: exact, like the operation match.
  app.enable("case sensitive routing");
  app.enable("strict routing");
  // Express's own ETags would hash every answer; the resources that have one set it themselves (server/platform/entity-tags.ts).
  app.set("etag", false);
  // One layer for the whole pipeline before the handlers, in this order (server/api/http/middleware-series.ts).
  app.use(
    middlewareSeries(
      // First, so errors carry them too. No CORS middleware, on purpose: keys never reach a browser (see the module).
      securityHeaders,
      assignRequestId,
      requestLog(logger),
      // Everything after this reads the one decision of which operation the request addresses.
      matchOperation(matcher),
      authenticate(keys),
      recordRequests(requests, config.environment, () => clock.now()),
      // Before the rate limits: a key refused its scope spends nothing, and nothing after it runs.
      authorizeScope,
      rateLimit(new RateLimiter(config.rateLimits ?? DEFAULT_RATE_LIMITS, () => services.rateLimitStore), services),
      answerUnaddressed(services.deployment.referenceUrl),
      checkIntegerQuery,
      jsonBody("1mb"),
      ...OpenApiValidator.middleware(
        validatorOptions(documentFor(variants, config.environment), {
          validateRequests: config.validateRequests,
          validateResponses: config.validateResponses,
        }),
      ),
    ),
  );
  registerRoutes(app, { ...handlers, ...config.handlers }, services);
  app.use(errorHandler(logger, services.deployment.referenceUrl));
  const routes = [...new Set(servedOperations(services.deployment).map((id) => operationTable[id].path))].sort();
  return { app, services, keys, outbox, requests, routes };
}
