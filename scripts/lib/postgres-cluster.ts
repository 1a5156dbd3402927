/**
 * A throwaway PostgreSQL 15 cluster from Debian's `postgresql` package, for tests and benchmarks
 * (scripts/postgres-cluster.ts is its command line). PostgreSQL refuses to run as root, so as root
 * it runs as the postgres user.
 */
import { execFileSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = process.env.POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;

function runPostgresTool(tool: string, args: string[]): void {
  const [command, fullArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", join(BIN, tool), ...args]] : [join(BIN, tool), args];
  execFileSync(command, fullArgs, { stdio: ["ignore", "ignore", "inherit"] });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

// fsync off: a throwaway cluster trades durability on power loss for speed.
const serverOptions = (directory: string, port: number) =>
  `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;

export async function startCluster(directory?: string, port?: number): Promise<{ databaseUrl: string; directory: string; port: number }> {
  const dir = directory ?? mkdtempSync(join(tmpdir(), "partner-api-pg-"));
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const { uid, gid } = userIds("postgres");
    chownSync(dir, uid, gid);
  }
  const listenPort = port ?? (await freePort());
  const data = join(dir, "data");
  runPostgresTool("initdb", ["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D", data]);
  runPostgresTool("pg_ctl", ["start", "-w", "-D", data, "-l", join(dir, "log"), "-o", serverOptions(dir, listenPort)]);
  return { databaseUrl: `postgres://postgres@127.0.0.1:${listenPort}/postgres`, directory: dir, port: listenPort };
}

/** Stops the server of a cluster and keeps its data: a database restart, as an operator's or a crash's. */
export function stopServer(directory: string): void {
  runPostgresTool("pg_ctl", ["stop", "-m", "fast", "-w", "-D", join(directory, "data")]);
}

/** Starts the server of a cluster stopped with stopServer again, on the port it had. */
export function startServer(directory: string, port: number): void {
  runPostgresTool("pg_ctl", [
    "start",
    "-w",
    "-D",
    join(directory, "data"),
    "-l",
    join(directory, "log"),
    "-o",
    serverOptions(directory, port),
  ]);
}

export function stopCluster(directory: string): void {
  statSync(join(directory, "data"));
  runPostgresTool("pg_ctl", ["stop", "-m", "fast", "-w", "-D", join(directory, "data")]);
  rmSync(directory, { recursive: true, force: true });
}

function userIds(name: string): { uid: number; gid: number } {
  const [uid, gid] = execFileSync("id", ["-u", name])
    .toString()
    .trim()
    .concat(" ", execFileSync("id", ["-g", name]).toString().trim())
    .split(" ");
  return { uid: Number(uid), gid: Number(gid) };
}
