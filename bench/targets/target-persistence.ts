/**
 * Where a benchmark target keeps its data: the migrated PostgreSQL database `DATABASE_URL` names
 * (pool of `PARTNER_API_DB_POOL_SIZE`), or memory (undefined: createApp's own) without it.
 */
import { openPostgresPersistence, type PostgresPersistence } from "../../server/store/postgres/index.js";

export async function targetPersistence(): Promise<PostgresPersistence | undefined> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return undefined;
  const poolSize = process.env.PARTNER_API_DB_POOL_SIZE ? Number(process.env.PARTNER_API_DB_POOL_SIZE) : undefined;
  return openPostgresPersistence({ databaseUrl, poolSize }, { environment: "sandbox" });
}
