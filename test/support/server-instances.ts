/**
 * Reference servers started as processes of their own on one PostgreSQL database, as a deployment
 * of several instances behind a load balancer runs them: for the tests that race instances and
 * kill them. Each is `server/main.ts` as `npm start` runs it, on a port of its own.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll } from "vitest";
import { freshDatabase } from "../../scripts/lib/fresh-database.js";
import { servingAddress, spawnServer, type ServerProcess } from "../../scripts/lib/server-process.js";

export { freshDatabase };

/** How long a burst's request is sent again after 503s: far beyond any wait the server bounds, within a test's time. */
const BURST_DEADLINE_MS = 60_000;

export const RACE_PARTNER_KEY = "sk_sandbox_multiInstancePartnerKey00000000";

export interface Instance {
  process: ServerProcess;
  baseUrl: string;
  /** A request as the partner, answered with its status and parsed body. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /**
   * As `call`, but as a client that honours the documented 503: on a busy machine a burst at one
   * row can outlast the server's bounded waits (503 with Retry-After), and is then sent again after
   * Retry-After, for at most BURST_DEADLINE_MS. What the burst's writes leave behind is what races test.
   */
  callUntilServed(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** SIGKILL: no shutdown, no finishing what is under way. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startInstance(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const process = spawnServer(["--import", "tsx", "server/main.ts"], {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    PARTNER_API_KEYS: `racer:${RACE_PARTNER_KEY}`,
    PARTNER_API_DEMO: "off",
    // The races send bursts no partner's limits would let through; the limits are not what they test.
    PARTNER_API_RATE_LIMIT_SCALE: "1000",
    ...env,
  });
  const baseUrl = await servingAddress("an instance on the shared database", process);
  const instance: Instance = {
    process,
    baseUrl,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${RACE_PARTNER_KEY}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async callUntilServed(method, path, body, headers) {
      const giveUpAt = performance.now() + BURST_DEADLINE_MS;
      for (;;) {
        const answer = await instance.call(method, path, body, headers);
        const retryAfterMs = Number(answer.headers.get("Retry-After")) * 1000;
        if (answer.status !== 503 || !(retryAfterMs > 0) || performance.now() + retryAfterMs > giveUpAt) return answer;
        await sleep(retryAfterMs);
      }
    },
    kill: () => process.kill(),
    async stop() {
      await process.stop();
    },
  };
  return instance;
}

/**
 * Two instances on a fresh database of `databaseUrl`, started before the suite's tests and stopped
 * after them; the array is filled once they listen.
 */
export function useTwoInstances(databaseUrl: string): Instance[] {
  const instances: Instance[] = [];
  beforeAll(async () => {
    const database = await freshDatabase(databaseUrl);
    instances.push(...(await Promise.all([startInstance(database), startInstance(database)])));
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });
  return instances;
}
