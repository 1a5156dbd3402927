/**
 * Restricted keys on instances sharing one database: a key made through the API on one instance
 * holds its scopes on the other, and its revocation there counts on both from the next request on.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCli } from "../support/keys-cli.js";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";

const serverUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("restricted keys on instances on one database", () => {
  let database: string;
  let instances: Instance[] = [];
  beforeAll(async () => {
    database = await freshDatabase(serverUrl!);
    instances = await Promise.all([startInstance(database), startInstance(database)]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  const call = (instance: Instance, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${instance.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("hold their scopes on every instance and are refused on every instance from the request after their revocation", async () => {
    const full = /sk_sandbox_\w+/.exec(
      await keysCli(["create", "--partner", "Restricted Keys Ltd", "--env", "sandbox"], {
        ...process.env,
        DATABASE_URL: database,
        PARTNER_API_DATA_DIR: "",
      }),
    )![0];
    const made = await call(instances[0]!, full, "POST", "/api/v1/api_keys", { name: "reader", scopes: ["users:read"] });
    expect(made.status).toBe(201);
    const { id, secret } = (await made.json()) as { id: string; secret: string };
    for (const instance of instances) {
      expect((await call(instance, secret, "GET", "/api/v1/users?limit=1")).status).toBe(200);
      expect((await call(instance, secret, "GET", "/api/v1/webhook_endpoints")).status).toBe(403);
    }
    expect((await call(instances[1]!, full, "DELETE", `/api/v1/api_keys/${id}`)).status).toBe(204);
    for (const instance of instances) expect((await call(instance, secret, "GET", "/api/v1/users?limit=1")).status).toBe(401);
  });
});
