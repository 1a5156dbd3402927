/**
 * express-openapi-validator 5.6 compiles every route's regular expression again on every request:
 * its route lookup (middlewares/openapi.metadata.js) calls path-to-regexp's `pathToRegexp` for
 * each route of the document until one matches, at request time. With the API's 45 routes that
 * was the largest single cost of a request in CPU profiles. It reads the function from the module
 * object at each call, so memoizing it there removes the cost without forking the validator;
 * the compiled objects are used read-only (no global or sticky flags), so sharing them is safe.
 */
import { createRequire } from "node:module";

type PathToRegexp = (path: string, options?: Record<string, unknown>) => unknown;

const MEMOIZED = Symbol.for("partner-api.memoizedPathToRegexp");
/** Routes are few; a bound keeps a caller with ever-new paths from growing the cache forever. */
const MAX_ENTRIES = 10_000;

/**
 * The validator passes only the two routing flags, once per route per request; serializing the
 * options object for the key cost as much as the lookup saved. Other options keep a full key.
 */
function cacheKeyOf(options: Record<string, unknown> | undefined): string {
  if (options === undefined) return "";
  const names = Object.keys(options);
  if (names.every((name) => name === "sensitive" || name === "strict")) return `${options.sensitive ? "s" : "-"}${options.strict ? "t" : "-"}`;
  return JSON.stringify(options);
}

export function memoizeValidatorRouteRegexps(): void {
  const requireFromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const module = requireFromValidator("path-to-regexp") as { pathToRegexp: PathToRegexp & { [MEMOIZED]?: true } };
  if (module.pathToRegexp[MEMOIZED]) return;
  const original = module.pathToRegexp;
  const cache = new Map<string, unknown>();
  const memoized = Object.assign(
    (path: string, options?: Record<string, unknown>) => {
      const key = `${path}\u0000${cacheKeyOf(options)}`;
      let compiled = cache.get(key);
      if (compiled === undefined) {
        compiled = original(path, options);
        if (cache.size < MAX_ENTRIES) cache.set(key, compiled);
      }
      return compiled;
    },
    { [MEMOIZED]: true as const },
  );
  module.pathToRegexp = memoized;
}
