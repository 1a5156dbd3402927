/**
 * The entry of the built server (`npm run serve`, dist/server/main.cjs; see
 * scripts/lib/server-build.ts). Runs the bundle next to it with V8's code cache: the bytecode of
 * every function the server compiled while starting and answering its first requests, in a run
 * made at build time. Without it, that code is compiled again at each start-up, a sizeable part of it
 * (`npm run bench:startup`, bench/results/). Node 22's module.enableCompileCache caches to a directory
 * instead; this loader predates it.
 *
 * A cache V8 rejects (another Node version or other V8 flags than the build's) only loses that
 * time: the bundle is compiled from source, with a warning to rebuild. With
 * PARTNER_API_WRITE_CODE_CACHE set (the build's run), the cache is written when the process exits.
 *
 * Built as CommonJS, so `__dirname` is the directory of the built entry.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Script } from "node:vm";
import { BUNDLE_FILE, CODE_CACHE_FILE, WRITE_CODE_CACHE_ENV } from "./bundle-files.js";

const bundlePath = join(__dirname, BUNDLE_FILE);
const cachePath = join(__dirname, CODE_CACHE_FILE);
const cachedData = existsSync(cachePath) ? readFileSync(cachePath) : undefined;

// The wrapper Node gives every CommonJS module, so the bundle runs as if required.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundlePath, "utf8")}\n})`, {
  filename: bundlePath,
  cachedData,
  // No importModuleDynamically: the bundle has no import() (PGlite, kept out of it, is required, see
  // server/store/postgres/postgres-persistence.ts), and the option's default loader warns that it is experimental.
});
if (cachedData && script.cachedDataRejected) {
  console.error(
    `${cachePath} was made by another Node than ${process.version} or with other V8 flags (command line or NODE_OPTIONS); starting without it, slower (\`npm run build:server\` rebuilds it)`,
  );
}
if (process.env[WRITE_CODE_CACHE_ENV]) process.once("exit", () => writeFileSync(cachePath, script.createCachedData()));

const bundle = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(bundle.exports, createRequire(bundlePath), bundle, bundlePath, __dirname);
