/**
 * The reference server, validating as deployed, with the largest zone a partner can build
 * (seedLargestZone) besides the usual seed. Prints one JSON line with the port and that zone's
 * domain id when it serves.
 */
import { createApp } from "../../server/app.js";
import { scaleRateLimits, DEFAULT_RATE_LIMITS } from "../../server/rate-limits/policy.js";
import { BENCH_KEY, BENCH_PARTNER, seed, seedLargestZone } from "./seed.js";

const { app, services } = createApp({
  environment: "sandbox",
  embedBaseUrl: "http://127.0.0.1:3001",
  partners: [{ partner: BENCH_PARTNER, keys: [BENCH_KEY] }],
  // The readers are the load being measured: the limits must not answer them.
  rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 1_000_000),
});
seed(services);
const domainId = seedLargestZone(services);
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port, domainId }));
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
