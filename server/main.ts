/** `npm start`: a deployment of the reference server. A sandbox makes the demo partner and prints its ready key and sign-in. */
// First, so its clock starts before the other modules are evaluated.
import { markStartup, startupMarks } from "./assembly/startup-timeline.js";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./assembly/app.js";
import type { KeyRing } from "./partners/keys/api-keys.js";
import { logMailer, noMailer } from "./partners/accounts/mailer.js";
import { createDashboardApp, type PartnerDashboard } from "./dashboard/dashboard-app.js";
import type { RequestRecorder } from "./partners/request-history/request-recorder.js";
import { DEMO_PARTNER, openDemoPartner, type DemoPartnerAccess } from "./assembly/demo-partner.js";
import {
  demoKeySections,
  demoSignInLine,
  noDashboardLine,
  noDemoLine,
  noDemoSessionLine,
  noEmbeddedInterfaceLine,
} from "./assembly/demo-banner.js";
import { PartnersFileError } from "./partners/keys/partners-file.js";
import type { Services } from "./application/context.js";
import { ConfigurationError, loadDeploymentConfig, type DeploymentConfig, type StorageConfig } from "./assembly/config.js";
import { createEmbedApp } from "./embed/embed-app.js";
import { createDemoHostApp, DEMO_USER, demoHostOrigin, demoLines } from "./embed/demo-host.js";
import { every } from "./platform/every.js";
import { SHUTDOWN_GRACE_MS, shutDownGracefully } from "./api/http/graceful-shutdown.js";
import { createHttpServer } from "./api/http/http-server.js";
import { startDueChangeSweep } from "./application/sweep.js";
import { noKeyWarning, partnerKeyLines } from "./assembly/key-report.js";
import { ListenError, listenOn } from "./assembly/listen.js";
import { EnvironmentMismatchError, openPersistence, SchemaNotCurrentError } from "./assembly/open-persistence.js";
import { exitWithLine, stdoutLogger, tolerateClosedOutput } from "./assembly/output.js";
import { storageLine } from "./assembly/storage-report.js";
import type { Persistence } from "./store/persistence.js";
import { storeUnavailableIn } from "./platform/store-unavailable.js";

/** Exit codes: 1 when the server cannot run or its stop was not clean, 2 for a setting it cannot use. */
const EXIT_FAILED = 1;
const EXIT_CONFIGURATION = 2;

markStartup("imported");
tolerateClosedOutput();

/** A configuration error is one line naming the setting, no stack: the stack is of no use to whoever set it. */
function configured<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigurationError) exitWithLine(error.message, EXIT_CONFIGURATION);
    if (error instanceof PartnersFileError) exitWithLine(`configuration: PARTNER_API_CONFIG: ${error.message}`, EXIT_CONFIGURATION);
    throw error;
  }
}

const config: DeploymentConfig = configured(() => loadDeploymentConfig(process.env));
// LOG_LEVEL=silent for none; lines are JSON, one per request (see server/api/http/request-log.ts).
const { logger, releaseHeldLines } = stdoutLogger(config.logLevel);
const environment = config.app.environment;
const partnersFile = config.app.partnersFile!;
/**
 * Why this sandbox makes no demo partner, or null when it makes one (beside any partner configured,
 * so that a second key made with `npm run keys` does not take the demo away). The demo partner is a
 * sandbox convenience: a production server never makes or prints a key, nor speaks of it.
 */
const noDemoReason =
  environment !== "sandbox"
    ? null
    : !config.demo
      ? "PARTNER_API_DEMO=off"
      : config.app.partners.some(({ partner }) => partner.id === DEMO_PARTNER.id)
        ? `a configured partner has its id, ${DEMO_PARTNER.id}`
        : null;
/** The demo partner of this sandbox: its account, key and sign-in are made once the store is open. */
const demoPartner = environment === "sandbox" && noDemoReason === null ? DEMO_PARTNER : null;
if (demoPartner) {
  // The demo page may frame the embedded interface, and so may origins PARTNER_API_EMBED_ORIGINS names for "demo".
  const embedOrigins = [
    ...(config.demoHostPort === null ? [] : [demoHostOrigin(config.demoHostPort)]),
    ...(config.embedOrigins.get(demoPartner.id) ?? []),
  ];
  config.app.partners = [...config.app.partners, { partner: demoPartner, keys: [], embedOrigins }];
}
/** The setting that chose the store, for messages. */
const STORAGE_SETTING: Record<StorageConfig["kind"], string> = {
  memory: "memory",
  postgres: "DATABASE_URL",
  pglite: "PARTNER_API_DATA_DIR",
};

/**
 * Opens the store before anything else is built. A schema that is not this server's, or a database
 * of the other environment, is a setting to fix (exit 2, one line saying what to do); a database that cannot be reached is a
 * failure to run (exit 1, one line): neither prints a stack, and nothing listens.
 */
async function openStore(): Promise<Persistence> {
  const setting = STORAGE_SETTING[config.storage.kind];
  try {
    return await openPersistence(config.storage, config.app.environment);
  } catch (error) {
    if (error instanceof SchemaNotCurrentError || error instanceof EnvironmentMismatchError)
      exitWithLine(`database (${setting}): ${error.message}`, EXIT_CONFIGURATION);
    exitWithLine(`cannot open the database (${setting}): ${error instanceof Error ? error.message : String(error)}`, EXIT_FAILED);
  }
}

/** The deployment as assembled on its store: what start-up, the banner and the stop act on. */
interface Deployment {
  persistence: Persistence;
  services: Services;
  keys: KeyRing;
  requests: RequestRecorder;
  server: Server;
  embed: Server | null;
  demoHost: Server | null;
  dashboard: Server | null;
  /** The dashboard's state, whose API address is known once the API listens. */
  partnerDashboard: PartnerDashboard | null;
  servers: Server[];
  demo: (DemoPartnerAccess & { apiBaseUrl: string; userIdentifier: string }) | null;
}

async function assemble(persistence: Persistence): Promise<Deployment> {
  const { app, services, keys, requests, routes } = configured(() =>
    createApp({ ...config.app, persistence, deliverWebhooksPromptly: true, logger }),
  );
  markStartup("appBuilt");
  const pageLog = (message: string, error?: unknown) =>
    error === undefined ? logger.warn(message) : logger.error({ err: error }, message);
  const apiBaseUrl = `http://${config.host}:${config.port}`;
  const mailer = environment === "sandbox" ? logMailer((fields, message) => logger.info(fields, message)) : noMailer;
  const partnerDashboard =
    config.dashboardPort === null
      ? null
      : createDashboardApp({
          services,
          baseUrl: config.dashboardUrl,
          apiBaseUrl,
          routes,
          mailer,
          flushRequestLog: () => requests.flush(),
          trustProxy: config.dashboardTrustProxy,
          log: pageLog,
        });
  const demo = demoPartner
    ? { ...(await openDemoPartner(persistence, environment, services.clock.now())), apiBaseUrl, userIdentifier: DEMO_USER }
    : null;
  const server = createHttpServer(app);
  const embed = config.embedPort === null ? null : createHttpServer(createEmbedApp(services, { log: pageLog }));
  const demoHost = demo && config.demoHostPort !== null ? createHttpServer(createDemoHostApp(demo)) : null;
  const dashboard = partnerDashboard && createHttpServer(partnerDashboard.app);
  const servers = [server, embed, demoHost, dashboard].filter((listening): listening is Server => listening !== null);
  return { persistence, services, keys, requests, server, embed, demoHost, dashboard, partnerDashboard, servers, demo };
}

/**
 * How a periodic task's failure is logged. A database out of reach is expected in operation and the
 * task runs again on its next tick: a warning without a stack, as a request's 503 is.
 */
function backgroundFailure(what: string): (error: unknown) => void {
  return (error) => {
    const unavailable = storeUnavailableIn(error);
    if (unavailable) logger.warn({ reason: unavailable.message }, `${what}: store unavailable`);
    else logger.error({ err: error }, what);
  };
}

let stopSweep = () => {};
let stopWebhooks = () => {};

/** Binds every listener; nothing is announced until all of them listen. */
async function start(deployment: Deployment): Promise<void> {
  const { services, servers, server, embed, demoHost, dashboard } = deployment;
  try {
    await Promise.all([
      listenOn(server, config.port, config.host, { port: "PORT", host: "HOST" }),
      embed && listenOn(embed, config.embedPort!, config.host, { port: "EMBED_PORT", host: "HOST" }),
      demoHost && listenOn(demoHost, config.demoHostPort!, "127.0.0.1", { port: "DEMO_HOST_PORT" }),
      dashboard && listenOn(dashboard, config.dashboardPort!, config.host, { port: "DASHBOARD_PORT", host: "HOST" }),
    ]);
  } catch (error) {
    if (error instanceof ListenError) exitWithLine(error.message, EXIT_FAILED);
    throw error;
  }
  // Errors after binding (a failing accept) are logged; they do not stop the other listeners.
  for (const listening of servers) listening.on("error", (error) => logger.error({ err: error }, "listener error"));
  stopSweep = startDueChangeSweep(services, backgroundFailure("due-change sweep failed"));
  // Retries fall due as time passes; a second is well inside the shortest retry delay (1 minute).
  stopWebhooks = every(1000, () => services.webhooks.dispatcher.tick(), backgroundFailure("webhook dispatch failed"));
  markStartup("listening");
  // Milliseconds since the process started at which each step finished (see server/assembly/startup-timeline.ts).
  logger.info({ startupMs: startupMarks() }, "listening");
  await announce(deployment);
}

/**
 * The human banner, written as one block; the log lines of the start-up (`listening`, the request
 * of the demo session it opens) were held, and come out after it.
 */
async function announce(deployment: Deployment): Promise<void> {
  try {
    await printBanner(deployment);
  } finally {
    releaseHeldLines();
  }
}

async function printBanner({ server, embed, dashboard, partnerDashboard, keys, demo, persistence }: Deployment): Promise<void> {
  // The bound port: PORT=0 asks the system for a free one (the tests do).
  const baseUrl = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  if (demo) demo.apiBaseUrl = baseUrl;
  if (partnerDashboard) partnerDashboard.dashboard.apiBaseUrl = baseUrl;
  const head = [
    `partner-api ${environment} server on ${baseUrl} (variants ${config.app.variants?.join(", ")})`,
    storageLine(config.storage),
  ];
  const loaded = keys.loaded();
  const sources = { partnersFile, demoPartnerId: demo ? DEMO_PARTNER.id : null };
  head.push(...partnerKeyLines(loaded, environment, sources));
  const stored = await storedKeyCount(persistence);
  // In memory, the only stored keys are the demo's, which the banner names itself.
  if (stored !== null && persistence.kind !== "memory")
    head.push(
      `  ${stored} ${environment} key${stored === 1 ? "" : "s"} stored in the database (npm run keys with ${STORAGE_SETTING[config.storage.kind]})`,
    );
  const access: string[] = [];
  if (dashboard) {
    const { dashboardUrl } = config;
    access.push(`Partner dashboard: ${dashboardUrl}/   developer portal: ${dashboardUrl}/docs/`);
    if (demo) access.push(demoSignInLine(demo.signIn));
  } else access.push(noDashboardLine(demo !== null));
  if (noDemoReason !== null) access.push(noDemoLine(noDemoReason));
  const sections = [head, access];
  if (demo) sections.push(...demoKeySections(demo, baseUrl));
  if (demo && embed) {
    const demoPage = config.demoHostPort === null ? null : `${demoHostOrigin(config.demoHostPort)}/`;
    sections.push(
      await demoLines(demo, demoPage).catch((error: unknown) => {
        logger.error({ err: error }, "cannot open a demo session");
        return [noDemoSessionLine];
      }),
    );
  } else if (demo) sections.push([noEmbeddedInterfaceLine]);
  // Sections apart by a blank line, and one after the last, as a block for people ends.
  const lines = sections.filter((section) => section.length > 0).flatMap((section) => [...section, ""]);
  console.log(lines.join("\n"));
  const warning = stored ? null : noKeyWarning(loaded, environment, sources);
  if (warning) console.error(warning);
}

/** Keys of this environment in the store; null while it does not answer (the banner still prints). */
async function storedKeyCount(persistence: Persistence): Promise<number | null> {
  try {
    return (await persistence.apiKeys.keysOf(environment)).length;
  } catch (error) {
    logger.warn({ err: error }, "cannot count the keys stored in the database");
    return null;
  }
}

/**
 * SIGTERM (and Ctrl-C): stop accepting, close idle keep-alive connections, let requests in flight
 * and webhook deliveries under way finish (at most SHUTDOWN_GRACE_MS, 10 s: well inside the 30 s
 * an orchestrator usually waits before SIGKILL), close the store's connections, then exit 0; exit 1
 * if something had to be cut, so a supervisor can tell a clean stop from a forced one. A second
 * signal (Ctrl-C twice) ends the process at once with 1. A signal while the store is still being
 * opened ends the process at once: nothing listens yet.
 */
async function shutDown(signal: string): Promise<void> {
  logger.info({ signal }, "shutting down");
  if (!running) process.exit(0);
  const { services, servers, persistence, requests } = running;
  stopSweep();
  stopWebhooks();
  const webhooksIdle = Promise.race([
    services.webhooks.dispatcher.idle().then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref()),
  ]);
  const listening = servers.filter((candidate) => candidate.listening);
  const finished = await Promise.all([...listening.map((candidate) => shutDownGracefully(candidate)), webhooksIdle]);
  // The request log of the last requests, before the store closes.
  await requests.flush();
  const closed = await persistence.close().then(
    () => true,
    (error: unknown) => {
      logger.error({ err: error }, "closing the store failed");
      return false;
    },
  );
  const complete = finished.every(Boolean) && closed;
  logger.info({ complete }, "stopped");
  process.exit(complete ? 0 : EXIT_FAILED);
}

let running: Deployment | null = null;
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(EXIT_FAILED);
    stopping = true;
    void shutDown(signal);
  });
}

// No top-level await: the built server is a CommonJS bundle (scripts/lib/server-build.ts).
void openStore().then(async (persistence) => {
  markStartup("storeOpened");
  running = await assemble(persistence).catch((error: unknown) =>
    exitWithLine(`cannot prepare the demo partner: ${error instanceof Error ? error.message : String(error)}`, EXIT_FAILED),
  );
  return start(running);
});
