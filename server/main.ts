/** `npm start`: a sandbox deployment of the reference server. Prints a ready key when none is configured. */
import { createApp } from "./app.js";
import { generateApiKey } from "./auth/api-keys.js";
import { loadDeploymentConfig } from "./config.js";
import { createEmbedApp } from "./embed/embed-app.js";
import { every } from "./scheduling/every.js";
import { shutDownGracefully } from "./http/graceful-shutdown.js";
import { pino } from "pino";
import { startDueChangeSweep } from "./scheduling/sweep.js";

const config = loadDeploymentConfig(process.env);
// LOG_LEVEL=silent for none; lines are JSON, one per request (see server/http/request-log.ts).
const logger = pino({ level: process.env.LOG_LEVEL ?? "info" });
let demoKey: string | null = null;
if (config.app.partners.length === 0) {
  demoKey = generateApiKey(config.app.environment);
  config.app.partners = [{ partner: { id: "demo", name: "Demo partner" }, keys: [demoKey] }];
}
const { app, services } = createApp({ ...config.app, deliverWebhooksPromptly: true, logger });
const stopSweep = startDueChangeSweep(services, (error) => logger.error({ err: error }, "due-change sweep failed"));
// Retries fall due as time passes; a second is well inside the shortest retry delay (1 minute).
const stopWebhooks = every(1000, () => services.webhooks.dispatcher.tick(), (error) => logger.error({ err: error }, "webhook dispatch failed"));
const embed = config.embedPort === null ? null : createEmbedApp(services).listen(config.embedPort, config.host);
const server = app.listen(config.port, config.host, () => {
  const baseUrl = `http://${config.host}:${config.port}`;
  console.log(`partner-api ${config.app.environment} server on ${baseUrl} (variants ${config.app.variants?.join(", ")})`);
  if (demoKey) {
    console.log(`\nAPI key of the demo partner (shown once, valid until this process ends):\n  ${demoKey}\n`);
    console.log(`Try it:\n  curl -s -X POST ${baseUrl}/api/v1/users -H 'Authorization: Bearer ${demoKey}' -H 'Content-Type: application/json' -d '{"user_identifier":"user_1"}'\n`);
  }
});
server.on("error", (error) => {
  console.error(`cannot listen on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});
/**
 * SIGTERM (and Ctrl-C): stop accepting, let requests in flight and webhook deliveries under way
 * finish (at most 10 s), then exit 0; exit 1 if something had to be cut.
 */
async function shutDown(signal: string): Promise<void> {
  logger.info({ signal }, "shutting down");
  stopSweep();
  stopWebhooks();
  const servers = [server, embed].filter((listening) => listening !== null);
  const finished = await Promise.all([...servers.map((listening) => shutDownGracefully(listening)), Promise.race([services.webhooks.dispatcher.idle(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())])]);
  logger.info({ complete: finished.every((done) => done !== false) }, "stopped");
  process.exit(finished.every((done) => done !== false) ? 0 : 1);
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutDown(signal));
