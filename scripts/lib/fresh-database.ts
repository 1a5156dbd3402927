/** A database of its own on a PostgreSQL server, for a test run or a conformance run beside others on the same server. */
import { randomUUID } from "node:crypto";
import { migrate, openSql } from "../../server/store/postgres/index.js";

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
