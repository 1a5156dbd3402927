/**
 * Reference servers started as processes of their own on one PostgreSQL database, as a deployment
 * of several instances behind a load balancer runs them: for the tests that race instances and
 * kill them. Each is `server/main.ts` as `npm start` runs it, on a port of its own.
 */
import { randomUUID } from "node:crypto";
import { announcedAddress, spawnServer, type ServerProcess } from "../../scripts/lib/server-process.js";
import { migrate, openSql } from "../../server/store/postgres/index.js";

export const RACE_PARTNER_KEY = "sk_sandbox_multiInstancePartnerKey00000000";

export interface Instance {
  process: ServerProcess;
  baseUrl: string;
  /** A request as the partner, answered with its status and parsed body. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** SIGKILL: no shutdown, no finishing what is under way. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startInstance(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const process = spawnServer(["--import", "tsx", "server/main.ts"], {
    DATABASE_URL: databaseUrl,
    PORT: "0",
    EMBED_PORT: "0",
    DEMO_HOST_PORT: "0",
    LOG_LEVEL: "warn",
    PARTNER_API_KEYS: `racer:${RACE_PARTNER_KEY}`,
    // The races send bursts no partner's limits would let through; the limits are not what they test.
    PARTNER_API_RATE_LIMIT_SCALE: "1000",
    ...env,
  });
  const baseUrl = await announcedAddress(process, 30_000);
  if (!baseUrl) throw new Error(`an instance did not start:\n${process.output()}`);
  return {
    process,
    baseUrl,
    async call(method, path, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${RACE_PARTNER_KEY}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async kill() {
      process.child.kill("SIGKILL");
      await process.exited;
    },
    async stop() {
      if (process.child.exitCode === null) process.child.kill("SIGTERM");
      await process.exited;
    },
  };
}

/** A new database on the server `serverUrl` names, migrated as `npm run db:migrate` would: its URL. */
export async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `partner_api_instances_${randomUUID().replaceAll("-", "")}`;
  const admin = await openSql({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sql = await openSql({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.close();
  }
  return url.toString();
}
