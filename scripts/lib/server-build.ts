/**
 * The built server (`npm run build:server`, run by `npm start`), in dist/server/:
 * - server.cjs, the server and every dependency as one script: Node reads one file instead of
 *   resolving and loading hundreds of modules one by one, and no TypeScript is compiled at start-up
 *   (what the two cost under `tsx server/main.ts`: bench/results/). CommonJS, because the code cache
 *   is handed to V8 through vm.Script, which runs scripts, not ES modules;
 * - main.cjs, its entry (server/cached-bundle-loader.ts), which runs it with V8's code cache;
 * - the code cache itself, written by a priming run of the built server (code-cache-priming.ts).
 *
 * Two things differ in one file, handled here:
 * - `import.meta.url` (and ES modules) do not exist in CommonJS. A module that finds files next to
 *   itself (server/embed/embed-app.ts, its assets) gets its own source address instead, relative to
 *   the bundle, so the build works from the checkout it was built in.
 * - Each package is one module instance inside the bundle, not the copy under node_modules. The
 *   server patches module objects of path-to-regexp and express-openapi-validator
 *   (server/validator/route-regexp-cache.ts, server/validator/startup-shortcuts.ts) by importing them,
 *   which reaches the instances bundled with the validator as long as each package is bundled
 *   once; the build checks it (`bundledOnce`).
 */
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { build, transform, type Metafile, type Plugin } from "esbuild";
import { primeCodeCache } from "./code-cache-priming.js";
import { SERVER_NODE_OPTIONS } from "./server-node-options.js";
import { BUNDLE_FILE, ENTRY_FILE } from "../../server/bundle-files.js";

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

/** Builds the server into `directory` (relative to the working directory, the checkout) and primes its code cache. */
export async function buildServer(directory: string = SERVER_DIRECTORY): Promise<Metafile> {
  const { metafile } = await build({
    ...COMMON,
    entryPoints: ["server/main.ts"],
    outfile: join(directory, BUNDLE_FILE),
    plugins: [sourceModuleUrls(directory)],
    // PGlite finds its WebAssembly and data files beside its own module (import.meta.url), which a
    // CommonJS bundle does not keep: it is loaded from node_modules, as the checkout has it.
    external: ["@electric-sql/pglite"],
    // Names and layout are kept: a 500's stack in the logs stays readable without source maps,
    // which Node would load at every start-up.
    metafile: true,
  });
  const problems = bundledOnce(metafile);
  if (problems.length > 0) throw new Error(`server bundle: ${problems.join("; ")}`);
  await build({ ...COMMON, entryPoints: ["server/cached-bundle-loader.ts"], outfile: join(directory, ENTRY_FILE) });
  await primeCodeCache(directory);
  return metafile;
}
