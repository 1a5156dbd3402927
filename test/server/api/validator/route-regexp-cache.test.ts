/** The validator's per-request route compilation is served from a cache (server/api/validator/route-regexp-cache.ts). */
import { createRequire } from "node:module";
import pathToRegexpModule from "path-to-regexp";
import { expect, it } from "vitest";
import { memoizeValidatorRouteRegexps } from "../../../../server/api/validator/route-regexp-cache.js";

const requireFromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));

it("patches the path-to-regexp the validator requires, which is the server's own dependency", () => {
  // One copy installed (the direct dependency is pinned to the version the validator resolves):
  // the module object the server imports is the one the validator reads. In the bundled server the
  // build checks the same (scripts/lib/server-build.ts, test/scripts/server-build.test.ts).
  expect(requireFromValidator("path-to-regexp")).toBe(pathToRegexpModule);
  memoizeValidatorRouteRegexps();
  const { pathToRegexp } = requireFromValidator("path-to-regexp") as { pathToRegexp: (path: string) => unknown };
  expect(pathToRegexp("/api/v1/users")).toBe(pathToRegexp("/api/v1/users"));
});

it("compiles a route once and returns the same matcher after, for the same options only", () => {
  memoizeValidatorRouteRegexps();
  memoizeValidatorRouteRegexps();
  const { pathToRegexp } = requireFromValidator("path-to-regexp") as {
    pathToRegexp: (path: string, options?: object) => { regexp: RegExp };
  };
  const first = pathToRegexp("/api/v1/domains/:domain_id", { sensitive: false, strict: false });
  expect(pathToRegexp("/api/v1/domains/:domain_id", { sensitive: false, strict: false })).toBe(first);
  expect(pathToRegexp("/api/v1/domains/:domain_id", { sensitive: true, strict: false })).not.toBe(first);
  expect(first.regexp.exec("/api/v1/domains/dom_1")?.[1]).toBe("dom_1");
  expect(first.regexp.exec("/api/v1/domains/dom_1")?.[1]).toBe("dom_1");
});

it("keys the cache on every option: each routing flag, and options beyond them", () => {
  memoizeValidatorRouteRegexps();
  const { pathToRegexp } = requireFromValidator("path-to-regexp") as {
    pathToRegexp: (path: string, options?: object) => { regexp: RegExp };
  };
  const loose = pathToRegexp("/api/v1/users", { sensitive: false, strict: false });
  const strict = pathToRegexp("/api/v1/users", { sensitive: false, strict: true });
  expect(strict).not.toBe(loose);
  expect(pathToRegexp("/api/v1/users", { strict: true, sensitive: false })).toBe(strict);
  const prefix = pathToRegexp("/api/v1/users", { sensitive: false, strict: false, end: false });
  expect(prefix).not.toBe(loose);
  expect(prefix.regexp.test("/api/v1/users/user_1")).toBe(true);
  expect(loose.regexp.test("/api/v1/users/user_1")).toBe(false);
});
