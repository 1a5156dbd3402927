/**
 * What instances on one database share besides the data: keys kept with `npm run keys`, rate-limit
 * counters, sandbox clocks; and a start-up refused on a database whose schema is behind, or that is
 * the other environment's. Needs a
 * PostgreSQL server: `npm run test:postgres` starts a throwaway one.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer } from "../../scripts/lib/server-process.js";
import { createDatabase } from "../../scripts/lib/fresh-database.js";
import { keysCli } from "../support/keys-cli.js";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
const run = promisify(execFile);

describe.skipIf(!serverUrl)("instances on one database", () => {
  let database: string;
  let instances: Instance[] = [];
  beforeAll(async () => {
    database = await freshDatabase(serverUrl!);
    // The description's own limits, so that the counters are small enough to read.
    instances = await Promise.all([
      startInstance(database, { PARTNER_API_RATE_LIMIT_SCALE: "1" }),
      startInstance(database, { PARTNER_API_RATE_LIMIT_SCALE: "1" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  const keys = (...args: string[]) => keysCli(args, { ...process.env, DATABASE_URL: database, PARTNER_API_DATA_DIR: "" });
  const withKey = (instance: Instance, key: string) =>
    fetch(`${instance.baseUrl}/api/v1/users?limit=1`, { headers: { Authorization: `Bearer ${key}` } }).then((response) => response.status);

  it("accept a key created with npm run keys on every instance, and refuse it on every instance from the request after its revocation", async () => {
    const key = /sk_sandbox_\w+/.exec(await keys("create", "--partner", "Shared Keys Ltd", "--env", "sandbox"))![0];
    expect(await withKey(instances[0]!, key)).toBe(200);
    expect(await withKey(instances[1]!, key)).toBe(200);
    await keys("revoke", "--key", key);
    expect(await withKey(instances[0]!, key)).toBe(401);
    expect(await withKey(instances[1]!, key)).toBe(401);
  });

  it("count a partner's requests once across instances: each instance's answer shows the other's requests", async () => {
    const remaining = async (instance: Instance) =>
      Number((await instance.call("GET", "/api/v1/users?limit=1")).headers.get("x-ratelimit-remaining"));
    const first = await remaining(instances[0]!);
    expect(await remaining(instances[1]!)).toBe(first - 1);
    expect(await remaining(instances[0]!)).toBe(first - 2);
  });

  it("move a partner's sandbox clock on every instance when it is advanced through one", async () => {
    const before = (await instances[1]!.call("GET", "/api/v1/sandbox/clock")).body.advanced_seconds as number;
    expect((await instances[0]!.call("POST", "/api/v1/sandbox/clock/advance", { seconds: 3600 })).status).toBe(200);
    expect((await instances[1]!.call("GET", "/api/v1/sandbox/clock")).body.advanced_seconds).toBe(before + 3600);
  });
});

describe.skipIf(!serverUrl)("a database whose schema is behind the server's", () => {
  it("is refused at start-up with one line naming npm run db:migrate, and nothing listens", async () => {
    const unmigrated = await createDatabase(serverUrl!, "partner_api_unmigrated");
    const server = spawnServer(["--import", "tsx", "server/main.ts"], { DATABASE_URL: unmigrated });
    expect(await server.exited).toBe(2);
    expect(server.errors().trim()).toMatch(
      /^database \(DATABASE_URL\): the database schema is behind this server .*run npm run db:migrate$/,
    );
    expect(server.output()).not.toMatch(/server on/);
  });
});

describe.skipIf(!serverUrl)("a database of the other environment", () => {
  it("is refused by a deployment at start-up and by npm run db:migrate, each in one line, and nothing listens", async () => {
    const production = await freshDatabase(serverUrl!, "partner_api_production", "production");
    const settings = { DATABASE_URL: production, PARTNER_API_DATA_DIR: "", PARTNER_API_ENVIRONMENT: "sandbox" };
    const server = spawnServer(["--import", "tsx", "server/main.ts"], settings);
    expect(await server.exited).toBe(2);
    expect(server.errors()).toBe(
      "database (DATABASE_URL): the database is the production deployment's, not sandbox's (PARTNER_API_ENVIRONMENT): each environment needs a database of its own\n",
    );
    expect(server.output()).not.toMatch(/server on/);
    const migrating = run("node_modules/.bin/tsx", ["scripts/db-migrate.ts"], { encoding: "utf8", env: { ...process.env, ...settings } });
    await expect(migrating).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("not sandbox's") });
  });
});
