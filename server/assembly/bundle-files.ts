/**
 * The files of the built server, in the directory it is built to (dist/server/ by default): shared
 * by the build (scripts/lib/server-build.ts) and the built entry (server/assembly/cached-bundle-loader.ts).
 */

/** What `npm run serve` runs: loads the bundle with its code cache. */
export const ENTRY_FILE = "main.cjs";
/** The server and every dependency, one CommonJS script. */
export const BUNDLE_FILE = "server.cjs";
/** V8's code cache of the bundle, written by the build's priming run. */
export const CODE_CACHE_FILE = "server.cjs.code-cache";
/** Set, the entry writes the code cache when the process exits. */
export const WRITE_CODE_CACHE_ENV = "PARTNER_API_WRITE_CODE_CACHE";
