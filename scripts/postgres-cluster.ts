/**
 * A throwaway PostgreSQL 15 cluster for tests and benchmarks, from Debian's `postgresql` package.
 *   tsx scripts/postgres-cluster.ts start [DIR] [PORT]   initdb into DIR (a new temp dir when absent),
 *                                                        start on 127.0.0.1:PORT (a free one when absent),
 *                                                        print DATABASE_URL=... and DIR=...
 *   tsx scripts/postgres-cluster.ts stop DIR             stop it and remove DIR
 *   tsx scripts/postgres-cluster.ts run -- CMD ARGS...   start one, run CMD with DATABASE_URL set, stop it
 */
import { spawnSync } from "node:child_process";
import { startCluster, stopCluster } from "./lib/postgres-cluster.js";

const [command, ...rest] = process.argv.slice(2);
if (command === "start") {
  const cluster = await startCluster(rest[0], rest[1] === undefined ? undefined : Number(rest[1]));
  console.log(`DATABASE_URL=${cluster.databaseUrl}\nDIR=${cluster.directory}`);
} else if (command === "stop" && rest[0]) {
  stopCluster(rest[0]);
} else if (command === "run" && rest[0] === "--" && rest.length > 1) {
  const cluster = await startCluster();
  try {
    const result = spawnSync(rest[1]!, rest.slice(2), { stdio: "inherit", env: { ...process.env, DATABASE_URL: cluster.databaseUrl } });
    process.exitCode = result.status ?? 1;
  } finally {
    stopCluster(cluster.directory);
  }
} else {
  console.error("usage: postgres-cluster.ts start [DIR] [PORT] | stop DIR | run -- COMMAND [ARGS...]");
  process.exitCode = 2;
}
