/**
 * The kit's command line (conformance/src/cli.ts) when a run cannot start: a refused key, a server
 * that is not there, a URL that is not one, a URL that is not this API. Each is one line on
 * standard error naming the cause, exit 2, and nothing else; and a run that does start writes its
 * reports and says nothing of the test runner it once ran under.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { freePort } from "../../scripts/lib/local-ports.js";
import { spawnOwned } from "../../scripts/lib/owned-processes.js";
import { KIT_KEY, KIT_REVOKED_KEY, KIT_SECOND_KEY, startKitTargetServer, type KitTargetServer } from "../support/kit-target-server.js";

let server: KitTargetServer;
let notApi: Server;
let notApiUrl: string;
let reportsDir: string;

beforeAll(async () => {
  server = await startKitTargetServer();
  // Any web server that is not this API: a page for every path.
  notApi = createServer((_request, response) => response.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Welcome</h1>"));
  await new Promise<void>((resolve) => notApi.listen(0, "127.0.0.1", resolve));
  notApiUrl = `http://127.0.0.1:${(notApi.address() as AddressInfo).port}`;
  reportsDir = await mkdtemp(join(tmpdir(), "partner-conformance-cli-"));
});

afterAll(async () => {
  await new Promise((resolve) => notApi?.close(resolve));
  await server?.close();
  if (reportsDir) await rm(reportsDir, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kit(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawnOwned("node_modules/.bin/tsx", ["conformance/src/cli.ts", ...args], {
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent("a run that cannot start says why in one line and exits 2", () => {
  const cases: Array<[string, () => Promise<string[]>, RegExp]> = [
    [
      "a key the server refuses",
      async () => ["--base-url", server.apiUrl, "--api-key", "sk_sandbox_notAKeyOfThisServer00000000000"],
      /^conformance: --api-key was refused by http:\/\/127\.0\.0\.1:\d+ \(401 unauthorized\)/,
    ],
    [
      "a key of the other environment",
      async () => ["--base-url", server.apiUrl, "--api-key", "sk_live_notAKeyOfThisServer000000000000000"],
      /^conformance: --api-key was refused .*\(401 unauthorized\): check the key, and that it is of this deployment's environment$/,
    ],
    [
      "a second key the server refuses",
      async () => ["--base-url", server.apiUrl, "--api-key", KIT_KEY, "--second-key", "sk_sandbox_notAKeyOfThisServer00000000000"],
      /^conformance: --second-key was refused/,
    ],
    [
      "something that is not a key",
      async () => ["--base-url", server.apiUrl, "--api-key", "secret"],
      /^conformance: --api-key is not a key of this API: keys start with sk_sandbox_ or sk_live_$/,
    ],
    [
      "a server that is not running",
      async () => ["--base-url", `http://127.0.0.1:${await freePort()}`, "--api-key", KIT_KEY],
      /^conformance: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused \(is the server running on that port\?\)$/,
    ],
    [
      "a URL that is not one",
      async () => ["--base-url", "127.0.0.1 port 3000", "--api-key", KIT_KEY],
      /^conformance: --base-url "127\.0\.0\.1 port 3000" is not a URL/,
    ],
    [
      "a URL of another scheme",
      async () => ["--base-url", "ftp://127.0.0.1", "--api-key", KIT_KEY],
      /^conformance: --base-url must be an http or https URL, not ftp$/,
    ],
    [
      "a web server that is not this API",
      async () => ["--base-url", notApiUrl, "--api-key", KIT_KEY],
      /^conformance: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/health answered 200 with text\/html, not a JSON object: is --base-url this API\?$/,
    ],
    [
      "the API's URL with its path prefix",
      async () => ["--base-url", `${server.apiUrl}/api/v1`, "--api-key", KIT_KEY],
      /^conformance: GET \S+\/api\/v1\/api\/v1\/health answered 404: --base-url is not this API's root \(try http:\/\/127\.0\.0\.1:\d+\)$/,
    ],
    [
      "a missing option",
      async () => ["--api-key", KIT_KEY],
      /^conformance: --base-url and --api-key are required \(--help lists the options\)$/,
    ],
    [
      "an unknown option",
      async () => ["--base-url", server.apiUrl, "--api-key", KIT_KEY, "--colour"],
      /^conformance: Unknown option '--colour'/,
    ],
    [
      "the same key twice",
      async () => ["--base-url", server.apiUrl, "--api-key", KIT_KEY, "--second-key", KIT_KEY],
      /^conformance: --second-key must be another partner's key, not --api-key again$/,
    ],
  ];

  it.each(cases)(
    "%s",
    async (_case, args, line) => {
      const { code, stdout, stderr } = await kit(await args());
      expect(code, stderr).toBe(2);
      expect(stderr.trimEnd().split("\n"), stderr).toHaveLength(1);
      expect(stderr.trimEnd()).toMatch(line);
      expect(stdout).toBe("");
    },
    scaled(60_000),
  );
});

it(
  "a run that starts writes its JUnit XML and Markdown summary where told, and prints no test runner's hints",
  async () => {
    const junit = join(reportsDir, "junit.xml");
    const summary = join(reportsDir, "summary.md");
    const { code, stdout, stderr } = await kit([
      "--base-url",
      server.apiUrl,
      "--api-key",
      KIT_KEY,
      "--second-key",
      KIT_SECOND_KEY,
      "--revoked-key",
      KIT_REVOKED_KEY,
      "--only",
      "^http\\.operations-have-scenarios$",
      "--junit",
      junit,
      "--summary",
      summary,
    ]);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain("✓ http.operations-have-scenarios");
    expect(stdout).toMatch(/checks: 1 passed, 0 failed, 0 not applicable/);
    expect(stdout).toMatch(/catalogue coverage \d+\/\d+ rules have checks/);
    expect(stdout + stderr).not.toMatch(/vitest|isolate/i);
    expect(await readFile(junit, "utf8")).toContain('name="http.operations-have-scenarios: ');
    expect(await readFile(summary, "utf8")).toMatch(/^# Conformance of http:\/\/127\.0\.0\.1:\d+\n/);
  },
  scaled(120_000),
);
