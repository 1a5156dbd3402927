/**
 * The client package as partners install it. packClient builds it and packs it with npm (the
 * tarball the developer portal serves: scripts/lib/client-tarball.ts). checkClientPackage then
 * lints the tarball with publint and @arethetypeswrong/cli, checks its files and that nothing in it
 * imports from outside the package, then type-checks a consumer against the unpacked tarball, once
 * with Node's types and once without (@types/node is not a dependency the package may assume).
 */
import { execFile } from "node:child_process";
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { npmPack, type PackedPackage } from "./npm-pack.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..", "..");
export const CLIENT_DIR = join(ROOT, "client");
/** What the published code may import besides its own files. */
const ALLOWED_BARE_IMPORTS = new Set(["openapi-fetch", "node:crypto"]);

export interface ClientPackageReport {
  tarball: string;
  /** Bytes of the .tgz, and of its files unpacked. */
  size: number;
  unpackedSize: number;
  files: string[];
  /** publint's messages (suggestions included), formatted. */
  publint: string[];
  /** @arethetypeswrong/cli's output (profile esm-only) and exit code. */
  attw: { exitCode: number; output: string };
  /** The unpacked package, installed as a consumer's node_modules would hold it. */
  installedDir: string;
  /** Everything wrong; empty when the package is fit to publish. */
  problems: string[];
}

async function command(file: string, args: string[], cwd: string): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    return { exitCode: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      exitCode: typeof failed.code === "number" ? failed.code : 1,
      output: `${failed.stdout ?? ""}${failed.stderr ?? ""}`,
    };
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Import specifiers of a .js or .d.ts file: static, dynamic, re-exports and `import("...")` types. */
const specifiersOf = (source: string) =>
  [
    ...source.matchAll(
      /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm,
    ),
  ].map((match) => (match[1] ?? match[2] ?? match[3])!);

const CONSUMER = `// A partner's code, type-checked against the packed package.
import { createPartnerClient, isRateLimited, type PartnerClient } from "@partner-api/client";
import { signWebhookBody, verifyWebhookSignature } from "@partner-api/client/webhooks";

export const client: PartnerClient = createPartnerClient({ apiKey: "sk_sandbox_x", baseUrl: "http://127.0.0.1:3000" });
const { data, error } = await client.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
export const spent: string | undefined = data?.total_spent;
if (isRateLimited(error)) console.log(error.details.retry_after.toFixed(0));
// @ts-expect-error not a path of the API
await client.GET("/api/v1/nope", {});
const event = verifyWebhookSignature("{}", signWebhookBody("{}", "whsec_x"), "whsec_x");
if (event.type === "user.deleted") console.log(event.data.user_identifier.toUpperCase());
`;

const CONSUMER_COMPILER_OPTIONS = {
  target: "ES2023",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noEmit: true,
  skipLibCheck: false,
};
/** A Node project: Node's own types, no DOM. */
const NODE_CONSUMER_TSCONFIG = {
  compilerOptions: { ...CONSUMER_COMPILER_OPTIONS, lib: ["ES2023"], types: ["node"] },
  files: ["consumer.ts"],
};
/**
 * A project without @types/node (a browser bundle, Deno, a worker): fetch comes from the DOM lib.
 * Its node_modules holds no @types at all, so a published type that needs Node's (Buffer, NodeJS.*)
 * fails here even through a `/// <reference types="node" />`.
 */
const NO_NODE_TYPES_CONSUMER_TSCONFIG = {
  compilerOptions: { ...CONSUMER_COMPILER_OPTIONS, lib: ["ES2023", "DOM"], types: [] },
  files: ["consumer.ts"],
};

/** The client's tarball, in the work directory, under npm's name (partner-api-client-<version>.tgz). */
export type PackedClient = PackedPackage;

/**
 * Builds the client and packs it with npm, in `workDir`: the tarball partners install. Built from a
 * copy of the package folder there, never client/dist, so that several test runs or builds in one
 * work tree do not overwrite each other's build.
 */
export async function packClient(workDir: string): Promise<PackedClient> {
  const packageDir = join(workDir, "package");
  const SOURCES_ONLY = new Set(["src", "scripts", "dist", ".build", "node_modules", "tsconfig.build.json", ".gitignore"]);
  await mkdir(packageDir);
  for (const entry of await readdir(CLIENT_DIR))
    if (!SOURCES_ONLY.has(entry)) await cp(join(CLIENT_DIR, entry), join(packageDir, entry), { recursive: true });
  const built = await command(
    process.execPath,
    [join(CLIENT_DIR, "scripts", "build.mjs"), "--out-dir", join(packageDir, "dist")],
    CLIENT_DIR,
  );
  if (built.exitCode !== 0) throw new Error(`the client build failed:\n${built.output}`);

  // The build just ran: prepack would build again, into client/dist.
  return npmPack(packageDir, workDir);
}

export async function checkClientPackage(workDir: string): Promise<ClientPackageReport> {
  const problems: string[] = [];
  const { tarball, size, unpackedSize, files } = await packClient(workDir);

  for (const file of files) {
    if (file !== "package.json" && file !== "README.md" && !file.startsWith("dist/"))
      problems.push(`unexpected file in the package: ${file}`);
  }
  if (!files.includes("README.md")) problems.push("README.md is not in the package");
  const manifest = JSON.parse(await readFile(join(CLIENT_DIR, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  if (JSON.stringify(Object.keys(manifest.dependencies ?? {})) !== JSON.stringify(["openapi-fetch"])) {
    problems.push(`runtime dependencies must be openapi-fetch only, not ${Object.keys(manifest.dependencies ?? {}).join(", ")}`);
  }

  const bytes = await readFile(tarball);
  // Loaded here, not at the top: packing alone (packClient) runs at `npm start`, which needs neither.
  const [{ publint }, { formatMessage }] = await Promise.all([import("publint"), import("publint/utils")]);
  // The tarball itself, as the registry would serve it (publint then reads no file of the work tree).
  const lint = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
    strict: true,
  });
  const publintMessages = lint.messages.map(
    (message) => `${message.type}: ${formatMessage(message, lint.pkg, { color: false }) ?? message.code}`,
  );
  for (const message of lint.messages)
    if (message.type !== "suggestion") problems.push(`publint ${message.type}: ${formatMessage(message, lint.pkg, { color: false })}`);

  // esm-only: the package is ESM (Node 22.12+ can also require() it); node10 and CJS-from-node16 resolution are out of scope.
  const attwCli = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist", "index.js");
  const attw = await command(
    process.execPath,
    [attwCli, tarball, "--profile", "esm-only", "--no-definitely-typed", "--no-color", "--no-emoji"],
    workDir,
  );
  if (attw.exitCode !== 0) problems.push(`@arethetypeswrong/cli found problems:\n${attw.output}`);

  // Installed as a consumer's node_modules holds it, next to the one dependency it declares.
  const installConsumer = async (name: string, withNodeTypes: boolean) => {
    const consumerDir = join(workDir, name);
    const installedDir = join(consumerDir, "node_modules", "@partner-api", "client");
    await mkdir(installedDir, { recursive: true });
    const untar = await command("tar", ["-xzf", tarball, "-C", installedDir, "--strip-components=1"], workDir);
    if (untar.exitCode !== 0) throw new Error(`tar failed:\n${untar.output}`);
    await symlink(join(ROOT, "node_modules", "openapi-fetch"), join(consumerDir, "node_modules", "openapi-fetch"), "dir");
    if (withNodeTypes) {
      await mkdir(join(consumerDir, "node_modules", "@types"), { recursive: true });
      await symlink(join(ROOT, "node_modules", "@types", "node"), join(consumerDir, "node_modules", "@types", "node"), "dir");
    }
    return { consumerDir, installedDir };
  };
  const { consumerDir, installedDir } = await installConsumer("consumer", true);

  for (const file of await filesUnder(installedDir)) {
    if (!/\.(js|d\.ts)$/.test(file)) continue;
    for (const specifier of specifiersOf(await readFile(file, "utf8"))) {
      const inside = specifier.startsWith(".")
        ? !relative(installedDir, join(dirname(file), specifier)).startsWith("..")
        : ALLOWED_BARE_IMPORTS.has(specifier);
      if (!inside) problems.push(`${relative(installedDir, file)} imports ${specifier}, which the package does not contain or declare`);
    }
  }

  const typecheckConsumer = async (dir: string, tsconfig: object, who: string) => {
    await writeFile(join(dir, "consumer.ts"), CONSUMER);
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    const typecheck = await command(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", dir], dir);
    if (typecheck.exitCode !== 0) problems.push(`${who} does not type-check against the packed package:\n${typecheck.output}`);
  };
  await typecheckConsumer(consumerDir, NODE_CONSUMER_TSCONFIG, "a consumer");
  const withoutNodeTypes = await installConsumer("consumer-without-node-types", false);
  await typecheckConsumer(withoutNodeTypes.consumerDir, NO_NODE_TYPES_CONSUMER_TSCONFIG, "a consumer without @types/node");

  return { tarball, size, unpackedSize, files, publint: publintMessages, attw, installedDir, problems };
}
