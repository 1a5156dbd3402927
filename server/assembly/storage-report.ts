/**
 * The start-up banner's line on where data lives, so whoever starts a server sees at once whether
 * it survives a restart. A PostgreSQL server is named by host, port and database only: never the
 * user or password DATABASE_URL may carry.
 */
import { resolve } from "node:path";
import type { StorageConfig } from "./config.js";

const POSTGRES_PORT = "5432";

export function storageLine(storage: StorageConfig): string {
  switch (storage.kind) {
    case "memory":
      return "data: in memory: nothing survives a restart (DATABASE_URL or PARTNER_API_DATA_DIR keep it)";
    case "pglite":
      return `data: embedded PostgreSQL (PGlite) in ${resolve(storage.dataDir)}, for this one process`;
    case "postgres":
      return `data: PostgreSQL at ${postgresAddress(storage.databaseUrl)}`;
  }
}

/** host:port/database of a postgres:// URL; a URL without a host means the local socket (libpq's convention). */
export function postgresAddress(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const socket = url.searchParams.get("host");
  const host = url.hostname !== "" ? `${url.hostname}:${url.port || POSTGRES_PORT}` : socket ? `socket ${socket}` : "the local socket";
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  return `${host}/${database || "(the user's default database)"}`;
}
