/**
 * The reference server for `npm run bench:fairness`: two partners, `heavy` and `light`, on memory or
 * on the migrated PostgreSQL database `DATABASE_URL` names (pool of `PARTNER_API_DB_POOL_SIZE`),
 * delivering webhooks as `npm start` does (promptly, and a tick every second). The limits are the
 * description's multiplied (`RATE_LIMIT_SCALE`), so the light partner's measuring load is never
 * refused; the heavy partner's load paces itself to the description's limits (bench/fairness.ts).
 * Prints one JSON line with the port when it serves.
 */
import { createApp } from "../../server/assembly/app.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../server/platform/rate-limits/policy.js";
import { every } from "../../server/platform/every.js";
import { targetPersistence } from "./target-persistence.js";
import { FAIRNESS_PARTNERS } from "./fairness-partners.js";

const persistence = await targetPersistence();
const { app, services } = createApp({
  persistence,
  environment: "sandbox",
  embedBaseUrl: "http://127.0.0.1:3001",
  partners: FAIRNESS_PARTNERS,
  rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, Number(process.env.RATE_LIMIT_SCALE ?? 1_000_000)),
  deliverWebhooksPromptly: true,
});
every(
  1000,
  () => services.webhooks.dispatcher.tick(),
  () => undefined,
);
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port, domainId: "" }));
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
