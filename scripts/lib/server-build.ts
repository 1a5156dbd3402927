/**
 * The built server (`npm run build:server`, run by `npm start`), in dist/server/:
 * - server.cjs, the server and every dependency as one script: Node reads one file instead of
 *   resolving and loading hundreds of modules one by one, and no TypeScript is compiled at start-up
 *   (what the two cost under `tsx server/main.ts`: bench/results/). CommonJS, because the code cache
 *   is handed to V8 through vm.Script, which runs scripts, not ES modules;
 * - main.cjs, its entry (server/assembly/cached-bundle-loader.ts), which runs it with V8's code cache;
 * - the code cache itself, written by a priming run of the built server (code-cache-priming.ts).
 *
 * The three are made in a staging directory beside `directory` and renamed into it once all are
 * complete, so a server starting meanwhile, or another build, never reads half of one. Each build
 * records what it read (server-build-record.ts): `npm start` skips the build while that is unchanged.
 *
 * Two things differ in one file, handled here:
 * - `import.meta.url` (and ES modules) do not exist in CommonJS. A module that finds files next to
 *   itself (server/embed/embed-app.ts, its assets) gets its own source address instead, relative to
 *   the bundle, so the build works from the checkout it was built in.
 * - Each package is one module instance inside the bundle, not the copy under node_modules. The
 *   server patches module objects of path-to-regexp and express-openapi-validator
 *   (server/api/validator/route-regexp-cache.ts, server/api/validator/startup-shortcuts.ts) by importing them,
 *   which reaches the instances bundled with the validator as long as each package is bundled
 *   once; the build checks it (`bundledOnce`).
 */
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { build, transform, type Metafile, type Plugin } from "esbuild";
import { removeAbandonedSiblings, temporarySibling } from "./atomic-files.js";
import { primeCodeCache } from "./code-cache-priming.js";
import { currentServerBuild, recordServerBuild } from "./server-build-record.js";
import { SERVER_NODE_OPTIONS } from "./server-node-options.js";
import { BUNDLE_FILE, CODE_CACHE_FILE, ENTRY_FILE } from "../../server/assembly/bundle-files.js";

export const SERVER_DIRECTORY = "dist/server";
export const SERVER_ENTRY = `${SERVER_DIRECTORY}/${ENTRY_FILE}`;
/** Node's arguments for the built server, as `npm run serve` passes them. */
export const SERVE_ARGUMENTS = [...SERVER_NODE_OPTIONS, SERVER_ENTRY] as const;

/** Packages the server patches by module object: each must be exactly one module in the bundle. */
export const PATCHED_PACKAGES = ["path-to-regexp", "express-openapi-validator"] as const;

const toPosix = (path: string) => path.split(sep).join("/");

/** Rewrites `import.meta.url` in the project's own modules to that module's source address. */
function sourceModuleUrls(bundleDirectory: string): Plugin {
  return {
    name: "source-module-urls",
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = await readFile(path, "utf8");
        if (!source.includes("import.meta.url")) return undefined;
        // `define` replaces the expression in the syntax tree, never inside a string or comment.
        const { code } = await transform(source, {
          loader: "ts",
          format: "esm",
          sourcefile: path,
          define: { "import.meta.url": "__sourceModuleUrl" },
        });
        const fromBundle = JSON.stringify(toPosix(relative(bundleDirectory, path)));
        const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${fromBundle})).href`;
        return { contents: `const __sourceModuleUrl = ${url};\n${code}`, loader: "js", resolveDir: dirname(path) };
      });
    },
  };
}

/** Problems with the patched packages in a build: several copies of one, or none. */
export function bundledOnce(metafile: Metafile): string[] {
  const problems: string[] = [];
  for (const name of PATCHED_PACKAGES) {
    const roots = new Set(
      Object.keys(metafile.inputs)
        .map((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
        // biome-ignore lint/complexity/useOptionalChain: a type guard must return a boolean, not undefined
        .filter((root): root is string => root !== undefined && root.endsWith(`node_modules/${name}`)),
    );
    if (roots.size !== 1)
      problems.push(
        `${name} is bundled ${roots.size} times (${[...roots].join(", ") || "never"}); the server's patch must reach the copy the validator uses`,
      );
  }
  return problems;
}

const COMMON = { bundle: true, platform: "node", format: "cjs", target: "node22", legalComments: "none", logLevel: "warning" } as const;

export interface ServerBuildOutcome {
  built: boolean;
  /** Modules in the bundle and its entry. */
  modules: number;
}

/** Builds the server into `directory` (relative to the working directory, the checkout) and primes its code cache. */
export async function buildServer(directory: string = SERVER_DIRECTORY): Promise<Metafile> {
  return (await buildAndRecord(directory)).server;
}

/** Builds the server into `directory` unless the build there is current (server-build-record.ts). */
export async function buildServerUnlessCurrent(directory: string = SERVER_DIRECTORY): Promise<ServerBuildOutcome> {
  const current = currentServerBuild(directory);
  if (current) return { built: false, modules: current.inputs.length };
  return { built: true, modules: (await buildAndRecord(directory)).inputs.length };
}

async function buildAndRecord(directory: string): Promise<{ server: Metafile; inputs: string[] }> {
  const started = Date.now();
  const { server, entry } = await buildServerFiles(directory);
  const inputs = [...new Set([...Object.keys(server.inputs), ...Object.keys(entry.inputs)])].sort();
  recordServerBuild(directory, inputs, started);
  return { server, inputs };
}

/** Builds the bundle and its entry in a staging directory, primes the code cache, and renames the three into `directory`. */
async function buildServerFiles(directory: string): Promise<{ server: Metafile; entry: Metafile }> {
  removeAbandonedSiblings(directory);
  // Beside `directory`, at the same depth: the source addresses the bundle computes relative to
  // its own directory hold in both, for the priming run here and for the server there.
  const staging = temporarySibling(directory);
  try {
    const { metafile: server } = await build({
      ...COMMON,
      entryPoints: ["server/main.ts"],
      outfile: join(staging, BUNDLE_FILE),
      plugins: [sourceModuleUrls(directory)],
      // PGlite finds its WebAssembly and data files beside its own module (import.meta.url), which a
      // CommonJS bundle does not keep: it is loaded from node_modules, as the checkout has it.
      external: ["@electric-sql/pglite"],
      // Names and layout are kept: a 500's stack in the logs stays readable without source maps,
      // which Node would load at every start-up.
      metafile: true,
    });
    const problems = bundledOnce(server);
    if (problems.length > 0) throw new Error(`server bundle: ${problems.join("; ")}`);
    const { metafile: entry } = await build({
      ...COMMON,
      entryPoints: ["server/assembly/cached-bundle-loader.ts"],
      outfile: join(staging, ENTRY_FILE),
      metafile: true,
    });
    await primeCodeCache(staging);
    mkdirSync(directory, { recursive: true });
    // Each file is replaced whole. A server starting between two renames reads a code cache made
    // for another bundle, which V8 rejects: that start is only slower.
    for (const file of [CODE_CACHE_FILE, BUNDLE_FILE, ENTRY_FILE]) renameSync(join(staging, file), join(directory, file));
    return { server, entry };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
