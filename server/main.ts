/** `npm start`: a sandbox deployment of the reference server. Prints a ready key when none is configured. */
// First, so its clock starts before the other modules are evaluated.
import { markStartup, startupMarks } from "./startup-timeline.js";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import { generateApiKey } from "./auth/api-keys.js";
import { loadDeploymentConfig } from "./config.js";
import { createEmbedApp } from "./embed/embed-app.js";
import { announceDemo, createDemoHostApp, DEMO_USER, demoHostOrigin } from "./embed/demo-host.js";
import { every } from "./scheduling/every.js";
import { SHUTDOWN_GRACE_MS, shutDownGracefully } from "./http/graceful-shutdown.js";
import { loggableErrorSerializers } from "./http/loggable-error.js";
import { pino } from "pino";
import { startDueChangeSweep } from "./scheduling/sweep.js";

markStartup("imported");
const config = loadDeploymentConfig(process.env);
// LOG_LEVEL=silent for none; lines are JSON, one per request (see server/http/request-log.ts).
const logger = pino({ level: process.env.LOG_LEVEL ?? "info", serializers: loggableErrorSerializers });
let demoKey: string | null = null;
if (config.app.partners.length === 0) {
  demoKey = generateApiKey(config.app.environment);
  // The demo page may frame the embedded interface, and so may origins PARTNER_API_EMBED_ORIGINS names for "demo".
  const embedOrigins = [...(config.demoHostPort === null ? [] : [demoHostOrigin(config.demoHostPort)]), ...(config.embedOrigins.get("demo") ?? [])];
  config.app.partners = [{ partner: { id: "demo", name: "Demo partner" }, keys: [demoKey], embedOrigins }];
}
const { app, services } = createApp({ ...config.app, deliverWebhooksPromptly: true, logger });
markStartup("appBuilt");
const stopSweep = startDueChangeSweep(services, (error) => logger.error({ err: error }, "due-change sweep failed"));
// Retries fall due as time passes; a second is well inside the shortest retry delay (1 minute).
const stopWebhooks = every(1000, () => services.webhooks.dispatcher.tick(), (error) => logger.error({ err: error }, "webhook dispatch failed"));
const embedLog = (message: string, error?: unknown) => (error === undefined ? logger.warn(message) : logger.error({ err: error }, message));
const embed = config.embedPort === null ? null : createEmbedApp(services, { log: embedLog }).listen(config.embedPort, config.host);
const demo = demoKey ? { apiBaseUrl: `http://${config.host}:${config.port}`, apiKey: demoKey, userIdentifier: DEMO_USER } : null;
const demoHost = demo && config.demoHostPort !== null ? createDemoHostApp(demo).listen(config.demoHostPort, "127.0.0.1") : null;
const server = app.listen(config.port, config.host, () => {
  markStartup("listening");
  // Milliseconds since the process started at which each step finished (see server/startup-timeline.ts).
  logger.info({ startupMs: startupMarks() }, "listening");
  // The bound port: PORT=0 asks the system for a free one (the tests do).
  const baseUrl = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  if (demo) demo.apiBaseUrl = baseUrl;
  console.log(`partner-api ${config.app.environment} server on ${baseUrl} (variants ${config.app.variants?.join(", ")})`);
  if (demoKey) {
    console.log(`\nAPI key of the demo partner (shown once, valid until this process ends):\n  ${demoKey}\n`);
    console.log(`Try it:\n  curl -s -X POST ${baseUrl}/api/v1/users -H 'Authorization: Bearer ${demoKey}' -H 'Content-Type: application/json' -d '{"user_identifier":"user_1"}'\n`);
  }
  if (demo && embed) {
    const demoPage = config.demoHostPort === null ? null : `${demoHostOrigin(config.demoHostPort)}/`;
    announceDemo(demo, demoPage).catch((error) => console.error("cannot open a demo session", error));
  }
});
server.on("error", (error) => {
  console.error(`cannot listen on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});
/**
 * SIGTERM (and Ctrl-C): stop accepting, close idle keep-alive connections, let requests in flight
 * and webhook deliveries under way finish (at most SHUTDOWN_GRACE_MS, 10 s: well inside the 30 s
 * an orchestrator usually waits before SIGKILL), then exit 0; exit 1 if something had to be cut,
 * so a supervisor can tell a clean stop from a forced one. A second signal (Ctrl-C twice) ends the
 * process at once with 1.
 */
async function shutDown(signal: string): Promise<void> {
  logger.info({ signal }, "shutting down");
  stopSweep();
  stopWebhooks();
  const servers = [server, embed, demoHost].filter((listening) => listening !== null);
  const webhooksIdle = Promise.race([
    services.webhooks.dispatcher.idle().then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref()),
  ]);
  const finished = await Promise.all([...servers.map((listening) => shutDownGracefully(listening)), webhooksIdle]);
  const complete = finished.every(Boolean);
  logger.info({ complete }, "stopped");
  process.exit(complete ? 0 : 1);
}
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void shutDown(signal);
  });
}
