/** `npm start`: a sandbox deployment of the reference server. Prints a ready key when none is configured. */
import { createApp } from "./app.js";
import { generateApiKey } from "./auth/api-keys.js";
import { loadDeploymentConfig } from "./config.js";
import { createEmbedApp } from "./embed/embed-app.js";
import { every } from "./scheduling/every.js";
import { startDueChangeSweep } from "./scheduling/sweep.js";

const config = loadDeploymentConfig(process.env);
let demoKey: string | null = null;
if (config.app.partners.length === 0) {
  demoKey = generateApiKey(config.app.environment);
  config.app.partners = [{ partner: { id: "demo", name: "Demo partner" }, keys: [demoKey] }];
}
const { app, services } = createApp({ ...config.app, deliverWebhooksPromptly: true });
const stopSweep = startDueChangeSweep(services, (error) => console.error("due-change sweep failed", error));
// Retries fall due as time passes; a second is well inside the shortest retry delay (1 minute).
const stopWebhooks = every(1000, () => services.webhooks.dispatcher.tick(), (error) => console.error("webhook dispatch failed", error));
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
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stopSweep();
    stopWebhooks();
    embed?.close();
    server.close(() => process.exit(0));
  });
}
