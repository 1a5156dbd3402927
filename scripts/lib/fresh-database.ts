/** A database of its own on a PostgreSQL server, for a test run or a conformance run beside others on the same server. */
import { randomUUID } from "node:crypto";
import type { Environment } from "../../generated/deployment.js";
import { migrate, openSql } from "../../server/store/postgres/index.js";

/** A new, empty database on the server `serverUrl` names, its name starting with `prefix`: its URL. */
export async function createDatabase(serverUrl: string, prefix = "partner_api"): Promise<string> {
  const name = `${prefix}_${randomUUID().replaceAll("-", "")}`;
  const admin = await openSql({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createDatabase, whoever is still connected to it. */
export async function dropDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const admin = await openSql({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await admin.exec(`DROP DATABASE ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}

/** A new database on the server `serverUrl` names, migrated for `environment` as `npm run db:migrate` would: its URL. */
export async function freshDatabase(
  serverUrl: string,
  prefix = "partner_api_instances",
  environment: Environment = "sandbox",
): Promise<string> {
  const databaseUrl = await createDatabase(serverUrl, prefix);
  const sql = await openSql({ databaseUrl, poolSize: 1 });
  try {
    await migrate(sql, environment);
  } finally {
    await sql.close();
  }
  return databaseUrl;
}
