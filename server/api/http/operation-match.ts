/**
 * The one decision of which operation a request addresses. Authentication, the rate-limit class,
 * logging, the answer for "no operation" and dispatch all read it (`res.locals.operation`), so no
 * spelling of a path can reach one of them and not the others.
 *
 * Matching is exact, the spec's "Paths and methods". The raw path is first normalized as RFC 3986
 * (6.2.2.2) makes equivalent spellings equal: percent-encoded unreserved characters are decoded,
 * so `/api/v1/domains/%74lds` is `/api/v1/domains/tlds` (the catalogue, not the domain "tlds").
 * Then fixed segments are compared byte for byte (so case, a trailing slash or an empty segment
 * match nothing) and parameters are percent-decoded once and may not be empty, `.` or `..` (a
 * client that normalizes dot segments would have sent another path) or hold a control character
 * (nothing the service stores holds one: server/platform/plain-text.ts; a database could not even compare it). `HEAD` addresses the `GET`
 * operation of its path.
 */
import type { RequestHandler } from "express";
import { operationTable, type OperationId, type OperationInfo } from "../../../generated/operations.js";
import { textProblem } from "../../platform/plain-text.js";

export interface MatchedOperation {
  readonly id: OperationId;
  readonly info: OperationInfo;
  /** Decoded path parameters by name. */
  readonly pathParams: Readonly<Record<string, string>>;
}

/** What a request addresses: an operation, or none, with the methods its path has (for 405's Allow). */
export type OperationMatch = { operation: MatchedOperation; allow?: undefined } | { operation: null; allow: readonly string[] };

/** A path template of the served operations, with the operation of each method it has. */
interface PathPattern {
  /** A fixed segment as written, or the name of a parameter. */
  readonly segments: ReadonlyArray<{ fixed: string } | { param: string }>;
  readonly byMethod: Map<string, OperationId>;
}

const DOT_SEGMENTS = new Set([".", ".."]);
/** The order methods are named in an Allow header. */
const ALLOW_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
const PERCENT_ENCODED_UNRESERVED = /%(2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/** What RFC 3986 allows unencoded in a path; anything else (a backslash, braces, quotes) addresses nothing. */
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/** RFC 3986 6.2.2.2: `%61` and `a` are the same path. Reserved characters stay encoded: `%2F` is data, not a separator. */
export const decodeUnreserved = (path: string) =>
  path.includes("%") ? path.replace(PERCENT_ENCODED_UNRESERVED, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))) : path;

function decodeParameter(raw: string): string | null {
  if (raw === "") return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return DOT_SEGMENTS.has(decoded) || textProblem(decoded) !== null ? null : decoded;
}

function parseTemplate(template: string): PathPattern["segments"] {
  return template
    .slice(1)
    .split("/")
    .map((segment) => (segment.startsWith("{") && segment.endsWith("}") ? { param: segment.slice(1, -1) } : { fixed: segment }));
}

/** Fixed segments before parameters, position by position: OpenAPI matches concrete paths before templated ones. */
function byFixedSegmentsFirst(a: PathPattern, b: PathPattern): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const aParam = "param" in a.segments[i]!;
    if (aParam !== "param" in b.segments[i]!) return aParam ? 1 : -1;
  }
  return 0;
}

function matchPattern(pattern: PathPattern, segments: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const expected = pattern.segments[i]!;
    if ("fixed" in expected) {
      if (expected.fixed !== segments[i]) return null;
      continue;
    }
    const value = decodeParameter(segments[i]!);
    if (value === null) return null;
    params[expected.param] = value;
  }
  return params;
}

export class OperationMatcher {
  /** By number of segments, in matching order: only templates that can match are tried. */
  private readonly patterns = new Map<number, PathPattern[]>();

  constructor(served: Iterable<OperationId>) {
    const byTemplate = new Map<string, PathPattern>();
    for (const id of served) {
      const { path, method } = operationTable[id];
      let pattern = byTemplate.get(path);
      if (!pattern) byTemplate.set(path, (pattern = { segments: parseTemplate(path), byMethod: new Map() }));
      pattern.byMethod.set(method.toUpperCase(), id);
    }
    for (const pattern of [...byTemplate.values()].sort(byFixedSegmentsFirst)) {
      this.patterns.set(pattern.segments.length, [...(this.patterns.get(pattern.segments.length) ?? []), pattern]);
    }
  }

  /**
   * `rawPath`: the request target's path as sent, not decoded (Express's `req.path`). The path
   * is matched first, then the method, as OpenAPI does: GET /api/v1/domains/transfer is the
   * transfer path without GET (405), not the domain named "transfer".
   */
  match(requestMethod: string, rawPath: string): OperationMatch {
    if (!rawPath.startsWith("/") || !PATH_CHARACTERS.test(rawPath)) return { operation: null, allow: [] };
    const segments = decodeUnreserved(rawPath).slice(1).split("/");
    for (const pattern of this.patterns.get(segments.length) ?? []) {
      const pathParams = matchPattern(pattern, segments);
      if (!pathParams) continue;
      // HEAD addresses the GET of its path (RFC 9110).
      const id = pattern.byMethod.get(requestMethod === "HEAD" ? "GET" : requestMethod);
      if (id) return { operation: { id, info: operationTable[id], pathParams } };
      return { operation: null, allow: ALLOW_ORDER.filter((method) => pattern.byMethod.has(method === "HEAD" ? "GET" : method)) };
    }
    return { operation: null, allow: [] };
  }
}

/** What the middleware leaves for every later step. */
export interface OperationLocals {
  operation: MatchedOperation | null;
  /** For "no operation": the methods the path has, empty when it is none of the API's. */
  allow: readonly string[];
}

export const operationOf = (locals: Record<string, unknown>): MatchedOperation | null =>
  (locals.operation as MatchedOperation | null | undefined) ?? null;

/**
 * Decides the operation once per request. A HEAD request is then handled as its GET from here on
 * (Node's response already knows to send no body for HEAD); the request log keeps the method sent.
 */
export function matchOperation(matcher: OperationMatcher): RequestHandler {
  return (req, res, next) => {
    const { operation, allow } = matcher.match(req.method, req.path);
    res.locals.operation = operation;
    res.locals.allow = allow ?? [];
    if (operation) {
      if (req.method === "HEAD") req.method = "GET";
      // The validator matches the request again, from the URL: it must read the normalized one.
      if (req.url.includes("%")) {
        const query = req.url.indexOf("?");
        req.url = decodeUnreserved(query === -1 ? req.url : req.url.slice(0, query)) + (query === -1 ? "" : req.url.slice(query));
        req.originalUrl = req.url;
      }
    }
    next();
  };
}
