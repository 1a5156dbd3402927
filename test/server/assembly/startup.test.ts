/**
 * `npm start` (server/main.ts) as a process: what it says at start-up, how it fails to start, and how
 * it stops. Each test runs the real server under tsx, as the other start-up tests do.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashApiKey } from "../../../server/partners/keys/api-keys.js";
import { loadDeploymentConfig } from "../../../server/assembly/config.js";
import { Deadline, pause, scaled } from "../../../scripts/lib/deadlines.js";
import { freePort } from "../../../scripts/lib/local-ports.js";
import { announcedAddress, spawnServer, type ServerProcess } from "../../../scripts/lib/server-process.js";

const KEY = "sk_sandbox_startupTestKey0000000000000000";
const LIVE_KEY = "sk_live_startupTestKey000000000000000000000";
/** A deployment with one partner key and nothing else listening. */
const QUIET = {
  PORT: "0",
  EMBED_PORT: "0",
  DASHBOARD_PORT: "0",
  DEMO_HOST_PORT: "0",
  LOG_LEVEL: "info",
  PARTNER_API_CONFIG: "/nonexistent.json",
  PARTNER_API_KEYS: `starter:${KEY}`,
  // In memory whatever the environment running the tests sets (empty is unset).
  DATABASE_URL: "",
  PARTNER_API_DATA_DIR: "",
};

const running: ServerProcess[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.kill()));
  cleanups.splice(0).forEach((cleanup) => cleanup());
});

function start(env: NodeJS.ProcessEnv): ServerProcess {
  const server = spawnServer(["--import", "tsx", "server/main.ts"], env);
  running.push(server);
  return server;
}

/** A port some other program holds. */
async function busyPort(): Promise<number> {
  const holder: Server = await new Promise((resolve) => {
    const listening = createServer().listen(0, "127.0.0.1", () => resolve(listening));
  });
  cleanups.push(() => holder.close());
  return (holder.address() as { port: number }).port;
}

function temporaryFile(name: string, content: string): string {
  const directory = mkdtempSync(join(tmpdir(), "startup-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const file = join(directory, name);
  writeFileSync(file, content);
  return file;
}

const stderrLines = (server: ServerProcess) => server.errors().split("\n").filter(Boolean);

/** Waits until `done` (at most a scaled deadline): lines written together may reach the test in several reads, stderr apart from stdout. */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = new Deadline(2_000); !done() && !deadline.passed; ) await pause(10);
}

/** Its exit code, or "still running" after `ms` scaled to the machine. */
const exitWithin = (server: ServerProcess, ms: number) =>
  Promise.race([server.exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running"), scaled(ms)))]);

describe("a setting npm start cannot use", () => {
  it.each([
    [
      "PORT",
      async () => ({ PORT: String(await busyPort()) }),
      (port: string) => `cannot listen on 127.0.0.1:${port} (PORT): address already in use`,
    ],
    [
      "EMBED_PORT",
      async () => ({ EMBED_PORT: String(await busyPort()) }),
      (port: string) => `cannot listen on 127.0.0.1:${port} (EMBED_PORT): address already in use`,
    ],
    // The demo page is served only for the demo partner, made beside the partners configured.
    [
      "DEMO_HOST_PORT",
      async () => ({ DEMO_HOST_PORT: String(await busyPort()) }),
      (port: string) => `cannot listen on 127.0.0.1:${port} (DEMO_HOST_PORT): address already in use`,
    ],
  ] as const)("a busy %s: one line naming it, exit 1, never a listening line or a stack", async (setting, env, line) => {
    const settings: Record<string, string> = await env();
    const server = start({ ...QUIET, ...settings });
    expect(await server.exited).toBe(1);
    expect(stderrLines(server)).toEqual([line(settings[setting]!)]);
    expect(server.output()).not.toMatch(/listening|server on/);
  });

  it.each([
    [{ PORT: "http" }, "configuration: PORT must be a port number (got http)"],
    [{ EMBED_PORT: "70000" }, "configuration: EMBED_PORT must be a port number (got 70000)"],
    [{ LOG_LEVEL: "loud" }, "configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got loud)"],
    [{ PARTNER_API_DEMO: "no" }, "configuration: PARTNER_API_DEMO must be on or off (got no)"],
    [{ PARTNER_API_VALIDATE_RESPONSES: "0" }, "configuration: PARTNER_API_VALIDATE_RESPONSES must be on or off (got 0)"],
    [
      { PARTNER_API_ENVIRONMENT: "production", PARTNER_API_KEYS: `starter:${KEY}` },
      "configuration: PARTNER_API_KEYS: the key of starter is not a production key (sk_live_...)",
    ],
    [{ PARTNER_API_CONFIG: "BROKEN" }, /^configuration: PARTNER_API_CONFIG: \S+partners\.json is not valid JSON \(.+\)$/],
    [
      { DATABASE_URL: "postgres://partner:secret@127.0.0.1:1/partner_api", PARTNER_API_DATA_DIR: "/nonexistent-data" },
      "configuration: DATABASE_URL and PARTNER_API_DATA_DIR are both set: choose PostgreSQL (DATABASE_URL) or the embedded one (PARTNER_API_DATA_DIR)",
    ],
  ])("configuration %j: one line naming the setting, exit 2, no stack", async (env, line) => {
    const settings = { ...env } as Record<string, string>;
    if (settings.PARTNER_API_CONFIG === "BROKEN") settings.PARTNER_API_CONFIG = temporaryFile("partners.json", '{ "partners": [');
    const server = start({ ...QUIET, ...settings });
    expect(await server.exited).toBe(2);
    expect(stderrLines(server)).toEqual([typeof line === "string" ? line : expect.stringMatching(line)]);
    expect(server.output()).not.toMatch(/listening|server on|\n\s+at /);
  });
});

describe("EMBED_PORT", () => {
  it("alone moves login_url to the embed host it starts, which opens it", async () => {
    const embedPort = await freePort();
    const server = start({ ...QUIET, EMBED_PORT: String(embedPort) });
    const baseUrl = await announcedAddress(server);
    expect(baseUrl, server.output()).toBeDefined();
    const response = await fetch(`${baseUrl}/api/v1/users`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ user_identifier: "u1" }),
    });
    const { login_url: loginUrl } = (await response.json()) as { login_url: string };
    expect(loginUrl).toMatch(new RegExp(`^http://localhost:${embedPort}/session/[A-Za-z0-9]{43}$`));
    expect((await fetch(loginUrl.replace("localhost", "127.0.0.1"), { redirect: "manual" })).status).toBe(303);
  });

  it("gives the default login_url base: localhost for a loopback or any-address HOST, HOST itself otherwise; PARTNER_API_EMBED_URL wins", () => {
    const embedUrl = (env: NodeJS.ProcessEnv) => loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env }).app.embedBaseUrl;
    expect(embedUrl({})).toBe("http://localhost:3001");
    expect(embedUrl({ EMBED_PORT: "4101" })).toBe("http://localhost:4101");
    expect(embedUrl({ EMBED_PORT: "4101", HOST: "0.0.0.0" })).toBe("http://localhost:4101");
    expect(embedUrl({ EMBED_PORT: "4101", HOST: "::1" })).toBe("http://localhost:4101");
    expect(embedUrl({ EMBED_PORT: "4101", HOST: "192.0.2.10" })).toBe("http://192.0.2.10:4101");
    expect(embedUrl({ EMBED_PORT: "4101", HOST: "2001:db8::10" })).toBe("http://[2001:db8::10]:4101");
    expect(embedUrl({ EMBED_PORT: "4101", PARTNER_API_EMBED_URL: "https://embed.example" })).toBe("https://embed.example");
  });
});

describe("the start-up banner", () => {
  it("names every partner with its keys of each environment and where they come from", async () => {
    const hash = (key: string) => hashApiKey(key).toString("hex");
    const file = temporaryFile(
      "partners.json",
      JSON.stringify({
        partners: [
          { id: "acme", name: "Acme Hosting", environment: "sandbox", key_hashes: [hash(`${KEY}a`), hash(`${KEY}b`)] },
          { id: "acme", name: "Acme Hosting", environment: "production", key_hashes: [hash(LIVE_KEY)] },
          { id: "later", name: "Later Inc", environment: "production", key_hashes: [hash(`${LIVE_KEY}b`)] },
        ],
      }),
    );
    const server = start({ ...QUIET, PARTNER_API_CONFIG: file });
    expect(await announcedAddress(server), server.output()).toBeDefined();
    const partnerLines = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("  partner "));
    await until(() => partnerLines().length === 3);
    expect(partnerLines()).toEqual([
      "  partner starter (starter): 1 sandbox key, from PARTNER_API_KEYS",
      `  partner acme (Acme Hosting): 2 sandbox keys, from ${file}; 1 production key there is not accepted by this sandbox deployment`,
      `  partner later (Later Inc): 0 sandbox keys, from ${file}; 1 production key there is not accepted by this sandbox deployment`,
    ]);
    expect(server.errors()).toBe("");
  });

  it("is one block, first: the log lines of the start-up (`listening`, the demo session's request) come after it", async () => {
    const server = start({
      ...QUIET,
      PARTNER_API_KEYS: "",
      EMBED_PORT: String(await freePort()),
      DEMO_HOST_PORT: String(await freePort()),
      DASHBOARD_PORT: String(await freePort()),
    });
    expect(await announcedAddress(server), server.output()).toBeDefined();
    await until(() => server.output().includes('"route":"/api/v1/users"'));
    const lines = server.output().split("\n").filter(Boolean);
    const isLogLine = (line: string) => line.startsWith("{");
    const firstLogLine = lines.findIndex(isLogLine);
    const banner = lines.slice(0, firstLogLine);
    expect(lines.slice(firstLogLine).filter((line) => !isLogLine(line))).toEqual([]);
    expect(banner[0]).toMatch(/^partner-api sandbox server on http:\/\/127\.0\.0\.1:\d+ /);
    // `npm start` without DATABASE_URL or PARTNER_API_DATA_DIR says its data does not last.
    expect(banner[1]).toBe("data: in memory: nothing survives a restart (DATABASE_URL or PARTNER_API_DATA_DIR keep it)");
    expect(banner.at(-1)).toMatch(/^ {2}the demo partner's page framing it/);
    const logMessages = lines.filter(isLogLine).map((line) => JSON.parse(line) as { msg?: string; route?: string });
    expect(logMessages[0]!.msg).toBe("listening");
    expect(logMessages.some((entry) => entry.route === "/api/v1/users")).toBe(true);
  });

  it("warns when a production deployment has no partner key (nobody can call it), and makes no demo key", async () => {
    const server = start({ ...QUIET, PARTNER_API_ENVIRONMENT: "production", PARTNER_API_KEYS: "" });
    expect(await announcedAddress(server), server.output()).toBeDefined();
    await until(() => server.errors() !== "");
    expect(stderrLines(server)).toEqual([
      "warning: no partner key is loaded (PARTNER_API_CONFIG /nonexistent.json, PARTNER_API_KEYS): every API request is refused until a key is created with `npm run keys -- create --env production --config /nonexistent.json`, which counts without a restart",
    ]);
    expect(server.output()).not.toMatch(/sk_live_|demo/i);
  });
});

/** The human banner, once it is out: the lines before the first log line, which is held until the banner is written. */
async function bannerOf(server: ServerProcess): Promise<string[]> {
  expect(await announcedAddress(server), server.output()).toBeDefined();
  await until(() => server.output().includes('"msg":"listening"'));
  const lines = server.output().split("\n");
  return lines.slice(
    0,
    lines.findIndex((line) => line.startsWith("{")),
  );
}

describe("the demo partner", () => {
  it("is made beside the partners of a partners file (`npm run keys -- create --partner` writes one), with its key, sign-in and login_url", async () => {
    const file = temporaryFile(
      "partners.json",
      JSON.stringify({
        partners: [{ id: "other_hosting", name: "Other Hosting", environment: "sandbox", key_hashes: [hashApiKey(KEY).toString("hex")] }],
      }),
    );
    const server = start({
      ...QUIET,
      PARTNER_API_KEYS: "",
      PARTNER_API_CONFIG: file,
      EMBED_PORT: String(await freePort()),
      DASHBOARD_PORT: String(await freePort()),
    });
    const banner = (await bannerOf(server)).join("\n");
    expect(banner).toContain(`  partner other_hosting (Other Hosting): 1 sandbox key, from ${file}`);
    expect(banner).toMatch(/^ {2}sign in as demo@example\.com with the password [A-Za-z0-9]{16} \(/m);
    expect(banner).toMatch(/^ {2}login_url \(opens for 24 hours\): http:\/\/localhost:\d+\/session\//m);
    const demoKey = /^API key of the demo partner .*:\n {2}(sk_sandbox_\w+)$/m.exec(banner)?.[1];
    expect(demoKey, banner).toBeDefined();
    const baseUrl = await announcedAddress(server);
    for (const key of [demoKey, KEY])
      expect((await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it.each([
    [{ PARTNER_API_DEMO: "off" }, "PARTNER_API_DEMO=off"],
    [{ PARTNER_API_KEYS: `demo:${KEY}` }, "a configured partner has its id, demo"],
  ])("is not made with %j, and the banner says why in one line", async (settings, reason) => {
    const banner = await bannerOf(start({ ...QUIET, ...settings }));
    expect(banner).toContain(`No demo partner, so no demo key, sign-in or login_url: ${reason}`);
    expect(banner.join("\n")).not.toMatch(/API key of the demo partner|password|login_url \(/);
  });

  it.each([
    [
      "no dashboard nor embedded interface",
      { DASHBOARD_PORT: "0", EMBED_PORT: "0" },
      [
        "Partner dashboard and developer portal: not served by this process (DASHBOARD_PORT=0), so no demo sign-in is shown",
        "No login_url of a demo user: this process serves no embedded interface (EMBED_PORT=0)",
      ],
    ],
    [
      "no demo page",
      { DEMO_HOST_PORT: "0", EMBED: "free" },
      ["  no demo partner's page framing it: this process serves none (DEMO_HOST_PORT=0)"],
    ],
  ])("says why it shows no sign-in, login_url or demo page, for each it leaves out (%s)", async (_case, settings, reasons) => {
    const { EMBED, ...env } = settings as Record<string, string>;
    if (EMBED === "free") env.EMBED_PORT = String(await freePort());
    const banner = await bannerOf(start({ ...QUIET, ...env }));
    expect(banner).toEqual(expect.arrayContaining(reasons));
    expect(banner.join("\n")).toMatch(/^API key of the demo partner /m);
  });
});

describe("stopping", () => {
  /**
   * A request whose body never finishes arriving: it keeps the server's graceful stop waiting.
   * Resolves once the server has read its headers, which it tells by answering `Expect: 100-continue`.
   */
  function requestInFlight(baseUrl: string) {
    const { port } = new URL(baseUrl);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    cleanups.push(() => socket.destroy());
    socket.write(
      `POST /api/v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
    );
    return new Promise<void>((resolve) => {
      socket.once("data", () => {
        socket.write(`{"user_identifier":`);
        resolve();
      });
    });
  }

  /** The server's standard output closed, as `npm start | head -1` leaves it once head exits. */
  async function startWithClosedOutput(): Promise<{ server: ServerProcess; baseUrl: string }> {
    const server = start(QUIET);
    const baseUrl = await announcedAddress(server);
    expect(baseUrl, server.output()).toBeDefined();
    // Its first write to the closed output is then the stop's own log lines, written just before it exits.
    server.child.stdout!.destroy();
    return { server, baseUrl: baseUrl! };
  }

  it("with standard output a closed pipe, SIGTERM still stops the server, with 0", async () => {
    const { server } = await startWithClosedOutput();
    server.child.kill("SIGTERM");
    expect(await exitWithin(server, 5000)).toBe(0);
    expect(server.errors()).toBe("");
  });

  it("with standard output a closed pipe, a second signal ends a stop that is waiting for a request, at once, with 1", async () => {
    const { server, baseUrl } = await startWithClosedOutput();
    await requestInFlight(baseUrl);
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();
    server.child.kill("SIGINT");
    expect(await exitWithin(server, 2000)).toBe(1);
  });
});
