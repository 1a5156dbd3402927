/**
 * The conformance kit as other implementations' CI uses it: `@partner-api/conformance` packed with
 * npm (scripts/lib/conformance-package.ts, also `npm run build:conformance`), installed into an
 * empty directory with no checkout around it, and run with `npx partner-api-conformance` against
 * the built reference server (two partners and a revoked key) and against Prism's mock, stateless,
 * on the oldest Node the package supports. Both runs pass and write their reports.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_BUNDLE_PATHS } from "../../generated/deployment.js";
import { CONFORMANCE_BIN, CONFORMANCE_DIR, packConformanceKit, type PackedKit } from "../../scripts/lib/conformance-package.js";
import { writeConformancePartners, type ConformancePartners } from "../../scripts/lib/conformance-partners.js";
import { scaled } from "../../scripts/lib/deadlines.js";
import { freePort, waitUntilServing } from "../../scripts/lib/local-ports.js";
import { nodeBinary } from "../../scripts/lib/node-binary.js";
import { spawnOwned, stopOwned } from "../../scripts/lib/owned-processes.js";
import { buildServerUnlessCurrent, SERVE_ARGUMENTS } from "../../scripts/lib/server-build.js";
import { servingAddress, spawnServer, type ServerProcess } from "../../scripts/lib/server-process.js";

const run = promisify(execFile);

let workDir: string;
let consumerDir: string;
let packed: PackedKit;
let partners: ConformancePartners;
let server: ServerProcess | undefined;
let serverUrl: string;
let mock: ReturnType<typeof spawnOwned> | undefined;
let mockUrl: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "partner-conformance-kit-test-"));
  consumerDir = join(workDir, "consumer");
  await mkdir(consumerDir);
  partners = writeConformancePartners(workDir);
  const mockPort = await freePort();
  mockUrl = `http://127.0.0.1:${mockPort}`;
  mock = spawnOwned("node_modules/.bin/prism", ["mock", SANDBOX_BUNDLE_PATHS.full, "--cors=false", "-p", String(mockPort), "-v", "error"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let mockErrors = "";
  mock.stderr!.on("data", (chunk: Buffer) => (mockErrors += chunk.toString()));
  const [kit] = await Promise.all([
    (async () => {
      const kit = await packConformanceKit(workDir);
      // An empty directory with no checkout above it: npm resolves the kit's dependencies from the registry (or its cache).
      await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", kit.tarball], { cwd: consumerDir });
      return kit;
    })(),
    (async () => {
      await buildServerUnlessCurrent();
      server = spawnServer([...SERVE_ARGUMENTS], {
        // The embed host login_url opens, which the kit's embed checks open (EMBED_PORT=0 would turn it off).
        EMBED_PORT: String(await freePort()),
        DASHBOARD_PORT: "0",
        PARTNER_API_CONFIG: partners.file,
        PARTNER_API_KEYS: "",
        PARTNER_API_DEMO: "off",
        PARTNER_API_RATE_LIMIT_SCALE: "100",
        DATABASE_URL: "",
        PARTNER_API_DATA_DIR: "",
        LOG_LEVEL: "silent",
      });
      serverUrl = await servingAddress("the built reference server", server, 90_000);
    })(),
    waitUntilServing("Prism's mock", `${mockUrl}/health`, { child: mock, output: () => mockErrors }),
  ]);
  packed = kit;
}, scaled(300_000));

afterAll(async () => {
  await Promise.all([server?.stop(), mock ? stopOwned(mock) : undefined]);
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** `npx partner-api-conformance ARGS` in the consumer's directory, on the given Node. */
async function npxKit(node: string, args: string[]): Promise<{ code: number; output: string }> {
  const child = spawnOwned("npx", [CONFORMANCE_BIN, ...args], {
    cwd: consumerDir,
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}`, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on("close", (exit) => resolve(exit ?? 1)));
  return { code, output };
}

describe("the packed conformance kit", () => {
  it("holds the bundled command, the published documents and the rule catalogue, and pins the checkout's versions", async () => {
    expect(packed.files).toContain("dist/cli.js");
    expect(packed.files).toContain("documents/partner-api.full.sandbox.yml");
    expect(packed.files).toContain("documents/partner-api.d.yml");
    expect(packed.files.some((file) => /^rules\/.+\.yml$/.test(file))).toBe(true);
    expect(packed.files.filter((file) => !/^(dist|documents|rules)\//.test(file))).toEqual(["README.md", "package.json"]);
    const manifest = JSON.parse(await readFile(join(CONFORMANCE_DIR, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const root = JSON.parse(await readFile("package.json", "utf8")) as Record<"dependencies" | "devDependencies", Record<string, string>>;
    for (const [name, version] of Object.entries(manifest.dependencies))
      expect(version, name).toBe({ ...root.devDependencies, ...root.dependencies }[name]);
    expect(existsSync(join(consumerDir, "node_modules", ".bin", CONFORMANCE_BIN))).toBe(true);
  });

  it(
    "passes against the built reference server, run with npx from a directory with no checkout",
    async () => {
      const { code, output } = await npxKit(process.execPath, [
        "--base-url",
        serverUrl,
        ...partners.keyOptions,
        "--quiet",
        "--junit",
        "reports/reference.xml",
        "--summary",
        "reports/reference.md",
      ]);
      expect(code, output).toBe(0);
      expect(output).toMatch(/checks: \d+ passed, 0 failed, 0 not applicable/);
      expect(output).toMatch(/catalogue coverage \d+\/\d+ rules have checks/);
      const junit = await readFile(join(consumerDir, "reports/reference.xml"), "utf8");
      expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
      const summary = await readFile(join(consumerDir, "reports/reference.md"), "utf8");
      expect(summary).toContain(`# Conformance of ${serverUrl}`);
      expect(summary).toContain("| rule | outcome | checks | statement |");
    },
    scaled(300_000),
  );

  it(
    "passes the stateless checks against Prism's mock, on the oldest Node it supports",
    async () => {
      const { code, output } = await npxKit(await nodeBinary("22"), [
        "--base-url",
        mockUrl,
        "--api-key",
        partners.key,
        "--stateless",
        "--quiet",
        "--junit",
        "reports/mock.xml",
        "--summary",
        "reports/mock.md",
      ]);
      expect(code, output).toBe(0);
      expect(output).toMatch(/checks: [1-9]\d* passed, 0 failed, \d+ not applicable/);
      expect(await readFile(join(consumerDir, "reports/mock.xml"), "utf8")).toMatch(/<testsuites [^>]*failures="0"/);
      expect(await readFile(join(consumerDir, "reports/mock.md"), "utf8")).toContain(`# Conformance of ${mockUrl}`);
    },
    scaled(300_000),
  );
});
