import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashApiKey } from "../../server/partners/keys/api-keys.js";
import { createApp } from "../../server/assembly/app.js";
import { loadDeploymentConfig } from "../../server/assembly/config.js";
import { storageLine } from "../../server/assembly/storage-report.js";
import { rateLimits } from "../../generated/operations.js";
import { captureLogger } from "../support/capture-logger.js";
import { keysCli } from "../support/keys-cli.js";
import { PARTNER_A_KEY, startTestServer, type TestServer } from "../support/test-server.js";

/** `npm run keys` keeps keys in the partners file unless DATABASE_URL or PARTNER_API_DATA_DIR is set (empty is unset). */
const PARTNERS_FILE_MODE = { ...process.env, DATABASE_URL: "", PARTNER_API_DATA_DIR: "" };

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const get = (path: string) => fetch(s!.baseUrl + path, { headers: { Authorization: `Bearer ${PARTNER_A_KEY}` } });

describe("a deployment serving Variant R only", () => {
  it("serves the record-centric operations and answers Variant D paths with 404", async () => {
    s = await startTestServer({ variants: ["R"] });
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    const domainId = await s.registerDomainFor("u1", "adalovelace.com");
    expect((await get(`/api/v1/domains/${domainId}/dns`)).status).toBe(404);
    // The path exists in Variant R (POST), so listing is a method this deployment does not allow.
    expect((await get("/api/v1/users")).status).toBe(405);
    expect((await get(`/api/v1/domains/${domainId}`)).status).toBe(200);
    const created = await s.api.POST("/api/v1/dns_records", { body: { domain_id: domainId, type: "A", name: "@", value: "203.0.113.10" } });
    expect(created.response.status).toBe(201);
    expect((await s.api.GET("/api/v1/health")).data!.variants).toEqual(["R"]);
  });
});

describe("a deployment serving Variant D only", () => {
  it("serves the domain-scoped operations and answers /api/v1/dns_records with 404", async () => {
    s = await startTestServer({ variants: ["D"] });
    expect((await get("/api/v1/dns_records/rec_x")).status).toBe(404);
    expect((await get("/api/v1/users")).status).toBe(200);
    expect((await s.api.GET("/api/v1/health")).data!.variants).toEqual(["D"]);
  });
});

describe("a production deployment", () => {
  it("refuses sandbox keys in its configuration", () => {
    expect(() =>
      createApp({
        environment: "production",
        embedBaseUrl: "https://embed.invalid",
        partners: [{ partner: { id: "p", name: "P" }, keys: [PARTNER_A_KEY] }],
      }),
    ).toThrow(/production deployment only takes sk_live_ keys/);
  });
});

describe("configuration from the environment", () => {
  it("defaults to a sandbox serving both variants on port 3000", () => {
    const config = loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json" });
    expect(config).toMatchObject({ port: 3000, host: "127.0.0.1", app: { environment: "sandbox", variants: ["R", "D"], partners: [] } });
  });

  it("takes partners and keys from PARTNER_API_KEYS for CI", () => {
    const config = loadDeploymentConfig({
      PARTNER_API_CONFIG: "/nonexistent.json",
      PARTNER_API_KEYS: `ci:${PARTNER_A_KEY}`,
      PARTNER_API_VARIANTS: "d",
    });
    expect(config.app.partners).toEqual([{ partner: { id: "ci", name: "ci" }, keys: [PARTNER_A_KEY], embedOrigins: [] }]);
    expect(config.app.variants).toEqual(["D"]);
  });

  it("holds a webhook delivery being attempted for PARTNER_API_WEBHOOK_LEASE_MS, or the dispatcher's default", () => {
    const leaseOf = (env: NodeJS.ProcessEnv) =>
      loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env }).app.webhookLeaseMs;
    expect(leaseOf({})).toBeUndefined();
    expect(leaseOf({ PARTNER_API_WEBHOOK_LEASE_MS: "1500" })).toBe(1500);
  });

  it("applies the description's rate limits unless PARTNER_API_RATE_LIMIT_SCALE raises them", () => {
    expect(loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json" }).app.rateLimits).toEqual(rateLimits);
    const raised = loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", PARTNER_API_RATE_LIMIT_SCALE: "100" }).app.rateLimits!;
    expect(raised.overall).toEqual([
      { limit: 100_000, window: 3600 },
      { limit: 10_000, window: 60 },
    ]);
    expect(raised.classes.user_deletion).toEqual({ limit: 3000, window: 60 });
  });

  it("validates its answers unless PARTNER_API_VALIDATE_RESPONSES is off", () => {
    const validates = (env: NodeJS.ProcessEnv) =>
      loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env }).app.validateResponses;
    expect([validates({}), validates({ PARTNER_API_VALIDATE_RESPONSES: "" }), validates({ PARTNER_API_VALIDATE_RESPONSES: "on" })]).toEqual(
      [true, true, true],
    );
    expect(validates({ PARTNER_API_VALIDATE_RESPONSES: "off" })).toBe(false);
  });

  it.each([
    [{ PORT: "http" }, /PORT/],
    [{ PARTNER_API_ENVIRONMENT: "staging" }, /PARTNER_API_ENVIRONMENT/],
    [{ PARTNER_API_VARIANTS: "R,X" }, /PARTNER_API_VARIANTS/],
    [{ PARTNER_API_KEYS: "no-colon" }, /PARTNER_API_KEYS/],
    [{ PARTNER_API_RATE_LIMIT_SCALE: "0" }, /PARTNER_API_RATE_LIMIT_SCALE/],
    [{ PARTNER_API_RATE_LIMIT_SCALE: "lots" }, /PARTNER_API_RATE_LIMIT_SCALE/],
    [{ PARTNER_API_WEBHOOK_LEASE_MS: "500" }, /PARTNER_API_WEBHOOK_LEASE_MS/],
    [{ PARTNER_API_WEBHOOK_LEASE_MS: "soon" }, /PARTNER_API_WEBHOOK_LEASE_MS/],
    [{ PARTNER_API_VALIDATE_RESPONSES: "false" }, /PARTNER_API_VALIDATE_RESPONSES must be on or off \(got false\)/],
  ])("refuses %j with a message naming the setting", (env, message) => {
    expect(() => loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env })).toThrow(message);
  });
});

describe("where a deployment keeps its data", () => {
  const storage = (env: NodeJS.ProcessEnv) => loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env }).storage;

  it("is this process's memory unless DATABASE_URL or PARTNER_API_DATA_DIR says otherwise, an empty value counting as unset", () => {
    expect(storage({})).toEqual({ kind: "memory" });
    expect(storage({ DATABASE_URL: "", PARTNER_API_DATA_DIR: "" })).toEqual({ kind: "memory" });
  });

  it("is a PostgreSQL server with DATABASE_URL, with the pool size PARTNER_API_DB_POOL_SIZE gives", () => {
    const databaseUrl = "postgres://partner:secret@db.internal:5433/partner_api";
    expect(storage({ DATABASE_URL: databaseUrl })).toEqual({ kind: "postgres", databaseUrl });
    expect(storage({ DATABASE_URL: databaseUrl, PARTNER_API_DB_POOL_SIZE: "20" })).toEqual({ kind: "postgres", databaseUrl, poolSize: 20 });
    expect(storage({ DATABASE_URL: "postgresql:///partner_api?host=/run/postgresql" })).toMatchObject({ kind: "postgres" });
  });

  it("is the embedded PostgreSQL in the directory PARTNER_API_DATA_DIR names", () => {
    expect(storage({ PARTNER_API_DATA_DIR: "./data" })).toEqual({ kind: "pglite", dataDir: "./data" });
  });

  it.each([
    [
      { DATABASE_URL: "postgres://db.internal/partner_api", PARTNER_API_DATA_DIR: "./data" },
      "configuration: DATABASE_URL and PARTNER_API_DATA_DIR are both set: choose PostgreSQL (DATABASE_URL) or the embedded one (PARTNER_API_DATA_DIR)",
    ],
    [
      { DATABASE_URL: "mysql://root:hunter2@db.internal/partner_api" },
      "configuration: DATABASE_URL must be a postgres:// or postgresql:// URL (its value is not shown: it may hold a password)",
    ],
    [{ DATABASE_URL: "db.internal:5432" }, "configuration: DATABASE_URL must be a postgres:// or postgresql:// URL"],
    [
      { DATABASE_URL: "postgres://db.internal/p", PARTNER_API_DB_POOL_SIZE: "0" },
      "PARTNER_API_DB_POOL_SIZE must be a positive whole number (got 0)",
    ],
    [
      { DATABASE_URL: "postgres://db.internal/p", PARTNER_API_DB_POOL_SIZE: "2.5" },
      "PARTNER_API_DB_POOL_SIZE must be a positive whole number (got 2.5)",
    ],
    [
      { DATABASE_URL: "postgres://db.internal/p", PARTNER_API_DB_POOL_SIZE: "many" },
      "PARTNER_API_DB_POOL_SIZE must be a positive whole number (got many)",
    ],
    [
      { PARTNER_API_DATA_DIR: "./data", PARTNER_API_DB_POOL_SIZE: "5" },
      "configuration: PARTNER_API_DB_POOL_SIZE applies only to a PostgreSQL server: set DATABASE_URL too, or remove it",
    ],
  ])("refuses %j with one line naming the setting, never repeating DATABASE_URL", (env, message) => {
    expect(() => storage(env)).toThrow(message);
    try {
      storage(env);
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2");
    }
  });
});

describe("the start-up banner's line on where data lives", () => {
  it("says memory keeps nothing across a restart, names PGlite's directory, and a PostgreSQL server by host, port and database only", () => {
    expect(storageLine({ kind: "memory" })).toBe(
      "data: in memory: nothing survives a restart (DATABASE_URL or PARTNER_API_DATA_DIR keep it)",
    );
    expect(storageLine({ kind: "pglite", dataDir: "/var/lib/partner-api" })).toBe(
      "data: embedded PostgreSQL (PGlite) in /var/lib/partner-api, for this one process",
    );
    expect(storageLine({ kind: "pglite", dataDir: "data" })).toBe(
      `data: embedded PostgreSQL (PGlite) in ${join(process.cwd(), "data")}, for this one process`,
    );
    const line = storageLine({ kind: "postgres", databaseUrl: "postgres://partner:s3cret@db.internal:5433/partner_api" });
    expect(line).toBe("data: PostgreSQL at db.internal:5433/partner_api");
    expect(storageLine({ kind: "postgres", databaseUrl: "postgresql://db.internal/partner_api" })).toBe(
      "data: PostgreSQL at db.internal:5432/partner_api",
    );
    expect(storageLine({ kind: "postgres", databaseUrl: "postgres:///partner_api?host=/run/postgresql" })).toBe(
      "data: PostgreSQL at socket /run/postgresql/partner_api",
    );
  });
});

describe("npm run keys", () => {
  it("creates a key, prints it once, stores only its hash, and the server accepts it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "keys-")), "partners.json");
    const output = await keysCli(["create", "--partner", "Acme Hosting", "--env", "sandbox", "--config", file], PARTNERS_FILE_MODE);
    const key = /sk_sandbox_[A-Za-z0-9]{32}/.exec(output)![0];
    const stored = readFileSync(file, "utf8");
    expect(stored).not.toContain(key);
    expect(stored).toContain(hashApiKey(key).toString("hex"));
    const config = loadDeploymentConfig({ PARTNER_API_CONFIG: file });
    // The server follows the file for the partner's keys (test/server/partners/keys/partner-keys.test.ts).
    expect(config.app.partners).toEqual([{ partner: { id: "acme_hosting", name: "Acme Hosting" }, embedOrigins: [] }]);
    expect(config.app.partnersFile).toBe(file);
    const { keys } = createApp(config.app);
    expect(await keys.partnerFor(key)).toEqual({ id: "acme_hosting", name: "Acme Hosting" });

    await keysCli(["revoke", "--key", key, "--config", file], PARTNERS_FILE_MODE);
    expect(await createApp(loadDeploymentConfig({ PARTNER_API_CONFIG: file }).app).keys.partnerFor(key)).toBeNull();
  });
});

describe("response validation", () => {
  it("turns a response that breaks the spec into a logged 500, never shipping it", async () => {
    const logged = captureLogger("error");
    const { app } = createApp({
      environment: "sandbox",
      embedBaseUrl: "http://embed.test",
      partners: [],
      // A handler that drops the required `time`, as a buggy implementation would.
      handlers: { getHealth: () => ({ status: 200, body: { status: "ok" } }) as never },
      logger: logged.logger,
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    server.close();
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: "internal_error",
      message: "An unexpected error occurred; quote the X-Request-Id when contacting support",
    });
    expect(logged.lines.map((line) => [line.msg, line.route])).toEqual([["unexpected error on GET /health", "/health"]]);
  });
});
