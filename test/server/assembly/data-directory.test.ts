/**
 * `npm start` on an embedded PostgreSQL directory (PARTNER_API_DATA_DIR), as real processes: every
 * start prints the same demo key and password; the directory serves one process at a time, and a
 * process killed without a chance to let it go does not keep it. The tests share one directory, in
 * order, as starts one after another on the same data would.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { hashApiKey } from "../../../server/partners/keys/api-keys.js";
import { LOCK_FILE } from "../../../server/store/postgres/data-directory-lock.js";
import { openPostgresPersistence } from "../../../server/store/postgres/index.js";
import { Deadline, pause, scaled } from "../../../scripts/lib/deadlines.js";
import { freePort } from "../../../scripts/lib/local-ports.js";
import { servingAddress, spawnServer, type ServerProcess } from "../../../scripts/lib/server-process.js";
import { keysCli } from "../../support/keys-cli.js";

const directory = mkdtempSync(join(tmpdir(), "data-directory-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.kill()));
});

/** A PGlite start opens and, the first time, creates its database: far slower than one in memory. */
const START_MS = scaled(120_000);

async function start(settings: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const server = spawnServer(["--import", "tsx", "server/main.ts"], {
    ...settings,
    LOG_LEVEL: "info",
    PARTNER_API_CONFIG: "/nonexistent.json",
    PARTNER_API_KEYS: "",
    DATABASE_URL: "",
    PARTNER_API_DATA_DIR: directory,
    DASHBOARD_PORT: String(await freePort()),
  });
  running.push(server);
  return server;
}

interface Started {
  server: ServerProcess;
  baseUrl: string;
  banner: string;
  apiKey: string;
  password: string | undefined;
}

/** Waits for the whole banner: the start-up's log lines, held until it is out, follow it. */
async function started(server: ServerProcess): Promise<Started> {
  const baseUrl = await servingAddress("the server on the PGlite directory", server);
  for (const deadline = new Deadline(5_000); !server.output().includes('"msg":"listening"') && !deadline.passed; ) await pause(10);
  const banner = server.output().split("\n{")[0]!;
  const apiKey = /^API key of the demo partner .*:\n {2}(sk_sandbox_\w+)$/m.exec(banner)?.[1];
  expect(apiKey, banner).toBeDefined();
  return { server, baseUrl, banner, apiKey: apiKey!, password: /with the password (\S+) \(/.exec(banner)?.[1] };
}

const statusWith = async (baseUrl: string, key: string) =>
  (await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${key}` } })).status;

describe("npm start on a PGlite directory (PARTNER_API_DATA_DIR)", () => {
  let first: Started;

  it(
    "refuses a second process on the directory in one line naming it and the process holding it, exit 1; and lets it go at the stop",
    async () => {
      first = await started(await start());
      const second = await start();
      expect(await second.exited).toBe(1);
      expect(second.errors()).toBe(
        `cannot open the database (PARTNER_API_DATA_DIR): ${directory} is in use by another process (pid ${first.server.child.pid}): ` +
          "an embedded database serves one process; stop that one, or use DATABASE_URL for several instances\n",
      );
      expect(second.output()).not.toMatch(/server on|listening/);
      expect(await statusWith(first.baseUrl, first.apiKey)).toBe(200);
      expect(await first.server.stop()).toBe(0);
      expect(existsSync(join(directory, LOCK_FILE))).toBe(false);
    },
    START_MS,
  );

  it(
    "prints the demo key and password of the start before; the key still authenticates",
    async () => {
      const again = await started(await start());
      expect(first.password).toMatch(/^[A-Za-z0-9]{16}$/);
      expect([again.apiKey, again.password]).toEqual([first.apiKey, first.password]);
      expect(again.banner).toContain("the same at every start on this data");
      expect(await statusWith(again.baseUrl, again.apiKey)).toBe(200);
    },
    START_MS,
  );

  it(
    "starts after the process holding the directory was killed (SIGKILL): the lock it left does not hold",
    async () => {
      const killed = await started(await start());
      await killed.server.kill();
      expect(existsSync(join(directory, LOCK_FILE))).toBe(true);
      const next = await started(await start());
      expect(next.apiKey).toBe(first.apiKey);
    },
    START_MS,
  );

  it(
    "makes and prints a new demo key when the one printed was revoked, and says why",
    async () => {
      // As the dashboard revokes it, between two starts (one process at a time).
      const persistence = await openPostgresPersistence({ dataDir: directory }, { environment: "sandbox" });
      expect(await persistence.apiKeys.revokeKey(hashApiKey(first.apiKey).toString("hex"))).toBe(true);
      await persistence.close();
      const next = await started(await start());
      expect(next.apiKey).not.toBe(first.apiKey);
      expect(next.banner).toContain(
        "API key of the demo partner (a new one: the key shown before was revoked or rolled in the dashboard; listed there as “Demo key (npm start)”):",
      );
      expect(next.password).toBe(first.password);
      expect(await statusWith(next.baseUrl, next.apiKey)).toBe(200);
      expect(await statusWith(next.baseUrl, first.apiKey)).toBe(401);
    },
    START_MS,
  );

  it(
    "refuses a production deployment on the sandbox's directory in one line, exit 2, nothing listening and nothing changed; the keys command refuses a production key there",
    async () => {
      const production = await start({ PARTNER_API_ENVIRONMENT: "production" });
      expect(await production.exited).toBe(2);
      expect(production.errors()).toBe(
        "database (PARTNER_API_DATA_DIR): the database is the sandbox deployment's, not production's (PARTNER_API_ENVIRONMENT): each environment needs a database of its own\n",
      );
      expect(production.output()).not.toMatch(/server on|listening/);
      const keys = keysCli(["create", "--partner", "Acme Hosting", "--env", "production"], {
        ...process.env,
        DATABASE_URL: "",
        PARTNER_API_DATA_DIR: directory,
      });
      await expect(keys).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining("the database is the sandbox deployment's, not production's"),
      });
      const again = await started(await start());
      expect(again.password).toBe(first.password);
      expect(await statusWith(again.baseUrl, again.apiKey)).toBe(200);
    },
    START_MS,
  );
});
