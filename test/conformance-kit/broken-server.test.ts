/**
 * The conformance kit's command line catches an implementation that breaks the contract, and says
 * exactly where: a server whose user read drops a required field and answers 200 for an unknown
 * user fails the checks that read a user, each naming the operation and what was wrong, and no other.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { spawnOwned } from "../../scripts/lib/owned-processes.js";
import { serveOnLoopback, type Listener } from "../support/listen.js";
import { createApp } from "../../server/assembly/app.js";
import { scaleRateLimits, DEFAULT_RATE_LIMITS } from "../../server/platform/rate-limits/policy.js";

const KEY = "sk_sandbox_brokenServerKey000000000000000";
let server: Listener;
let baseUrl: string;

beforeAll(async () => {
  const broken = createApp({
    environment: "sandbox",
    embedBaseUrl: "http://embed.test",
    partners: [{ partner: { id: "p", name: "P" }, keys: [KEY] }],
    rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 100),
    // Its own validator would turn the broken answers into 500s: this server ships them, as a broken implementation would.
    validateResponses: false,
    handlers: {
      // Drops the required total_spent, and finds every user, even one that does not exist.
      getUser: ({ path }) => ({
        status: 200,
        body: {
          user_identifier: path.user_identifier,
          email: null,
          created_at: "2026-11-22T10:00:00Z",
          last_login: "2026-11-22T10:00:00Z",
          domain_count: 0,
        } as never,
        etag: '"broken"',
      }),
    },
  });
  server = await serveOnLoopback(broken.app);
  baseUrl = server.url;
});
afterAll(() => server.close());

function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnOwned("node_modules/.bin/tsx", ["scripts/conformance.ts", ...args], {
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

it(
  "fails the run, naming the check, the operation, the status and the broken field",
  async () => {
    const { code, output } = await conformance([
      "--base-url",
      baseUrl,
      "--api-key",
      KEY,
      // The sweep over every operation, and the users family's check of an unknown user.
      "--only",
      "^(http\\.|users\\.unknown-user-not-found$)",
      "--junit",
      "test-output/conformance-broken.xml",
      "--summary",
      "test-output/conformance-broken.md",
    ]);
    expect(code, output).toBe(1);
    expect(output).toMatch(/✗ http\.every-operation-succeeds-as-documented/);
    expect(output).toContain("GET /api/v1/users/{user_identifier} answered 200 with a body that breaks the document");
    expect(output).toContain("must have required property 'total_spent'");
    expect(output).toMatch(/✗ users\.unknown-user-not-found/);
    expect(output).toMatch(/GET \/api\/v1\/users\/\{user_identifier\}[^\n]*200/);
    // The rest of the server conforms: the kit can still call every operation.
    expect(output).toMatch(/✓ http\.operations-have-scenarios/);
    expect(output).toMatch(/checks: 1 passed, 2 failed, 0 not applicable/);
  },
  scaled(120_000),
);
