/**
 * express-openapi-validator 5.6 compiles every route's regular expression again on every request:
 * its route lookup (middlewares/openapi.metadata.js) calls path-to-regexp's `pathToRegexp` for
 * each route of the document until one matches, at request time: the largest single cost of a
 * request in CPU profiles (bench/results/). It reads the function from the module
 * object at each call, so memoizing it there removes the cost without forking the validator;
 * the compiled objects are used read-only (no global or sticky flags), so sharing them is safe.
 *
 * The module object patched is the one the validator requires: path-to-regexp is a direct
 * dependency pinned to the version the validator and Express resolve, so npm installs one copy,
 * which Node loads once, and the server's bundler (scripts/lib/server-build.ts) includes once.
 * test/server/api/validator/route-regexp-cache.test.ts checks the first, test/scripts/server-build.test.ts the second.
 */
import pathToRegexpModule from "path-to-regexp";

type PathToRegexp = (path: string, options?: Record<string, unknown>) => unknown;

const MEMOIZED = Symbol.for("partner-api.memoizedPathToRegexp");
/** Routes are few; a bound keeps a caller with ever-new paths from growing the cache forever. */
const MAX_ENTRIES = 10_000;

const FLAG_KEYS = ["--", "s-", "-t", "st"] as const;

/**
 * The validator passes only the two routing flags, once per route per request, so their key is
 * one of four constant strings, found without allocating (serializing the options cost as much as
 * the lookup saved). Options beyond those two keep a full key.
 */
function cacheKeyOf(options: Record<string, unknown> | undefined): string {
  if (options === undefined) return "";
  for (const name in options) if (name !== "sensitive" && name !== "strict") return JSON.stringify(options);
  return FLAG_KEYS[(options.sensitive ? 1 : 0) + (options.strict ? 2 : 0)]!;
}

export function memoizeValidatorRouteRegexps(): void {
  // The default import of a CommonJS module is its exports object, which the validator reads.
  const module = pathToRegexpModule as unknown as { pathToRegexp: PathToRegexp & { [MEMOIZED]?: true } };
  if (module.pathToRegexp[MEMOIZED]) return;
  const original = module.pathToRegexp;
  // By options, then by path: the validator passes the same route strings on every request, whose
  // hashes V8 keeps, where a joined key would be a new string to hash per route per request.
  const cache = new Map<string, Map<string, unknown>>();
  let size = 0;
  const memoized = Object.assign(
    (path: string, options?: Record<string, unknown>) => {
      const optionsKey = cacheKeyOf(options);
      let byPath = cache.get(optionsKey);
      if (byPath === undefined) cache.set(optionsKey, (byPath = new Map()));
      let compiled = byPath.get(path);
      if (compiled === undefined) {
        compiled = original(path, options);
        if (size < MAX_ENTRIES) {
          byPath.set(path, compiled);
          size++;
        }
      }
      return compiled;
    },
    { [MEMOIZED]: true as const },
  );
  module.pathToRegexp = memoized;
}
