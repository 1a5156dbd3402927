/**
 * The reference server as a benchmark target: `VALIDATE=0` turns request and response validation
 * off; `LARGEST_ZONE=1` also builds the largest zone a partner can (seedLargestZone), whose domain
 * is then the `domainId` printed. `DATABASE_URL` keeps the data on that migrated PostgreSQL database
 * (pool of `PARTNER_API_DB_POOL_SIZE`) instead of memory; `SEEDED` (the JSON line another instance
 * printed) serves the data already there instead of seeding it. Prints one JSON line with the port
 * and the seeded ids when it serves.
 */
import { createApp } from "../../server/assembly/app.js";
import { scaleRateLimits, DEFAULT_RATE_LIMITS } from "../../server/platform/rate-limits/policy.js";
import { targetPersistence } from "./target-persistence.js";
import { BENCH_KEY, BENCH_PARTNER, seed, seedLargestZone } from "./seed.js";

const validate = process.env.VALIDATE !== "0";
const persistence = await targetPersistence();
const { app, services } = createApp({
  persistence,
  environment: "sandbox",
  embedBaseUrl: "http://127.0.0.1:3001",
  partners: [{ partner: BENCH_PARTNER, keys: [BENCH_KEY] }],
  // The load is the point: the limits must not answer it.
  rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 1_000_000),
  validateResponses: validate,
  validateRequests: validate,
});
const seeded: { domainId: string; writeDomainIds: string[] } = process.env.SEEDED ? JSON.parse(process.env.SEEDED) : await seed(services);
const { writeDomainIds } = seeded;
const domainId = process.env.LARGEST_ZONE === "1" ? await seedLargestZone(services) : seeded.domainId;
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port, domainId, writeDomainIds }));
});
// A signal ends the process normally, so `--cpu-prof` can write its profile.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
