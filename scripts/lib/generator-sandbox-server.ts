/**
 * The reference server in this process for `npm run check:generators`: a sandbox serving both
 * variants on a free loopback port, one partner with a known key, memory store, the description's
 * limits scaled up (five clients run the scenario within a minute).
 */
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createApp } from "../../server/assembly/app.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../server/platform/rate-limits/policy.js";

export const GENERATOR_MATRIX_KEY = "sk_sandbox_generatorMatrix0000000000000";
const RATE_LIMIT_SCALE = 100;

export interface GeneratorSandboxServer {
  url: string;
  apiKey: string;
  /** Unexpected errors (500s) the server logged: a scenario that caused one fails the run. */
  errors: string[];
  close(): Promise<void>;
}

export async function startGeneratorSandboxServer(): Promise<GeneratorSandboxServer> {
  const errors: string[] = [];
  const logger = pino({ level: "error" }, { write: (line: string) => void errors.push(line.trim()) });
  const { app, services } = createApp({
    environment: "sandbox",
    embedBaseUrl: "http://127.0.0.1:1",
    partners: [{ partner: { id: "generator_matrix", name: "Generator matrix" }, keys: [GENERATOR_MATRIX_KEY] }],
    rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, RATE_LIMIT_SCALE),
    logger,
  });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: GENERATOR_MATRIX_KEY,
    errors,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.persistence.close();
    },
  };
}
