/**
 * The API's body parser: JSON in UTF-8 only, refused rather than repaired, and plain text in every
 * string. Done once here, before validation and routing, so no operation can forget it.
 *
 * body-parser alone accepts any `charset=utf-*` (UTF-16 included) and decodes invalid bytes as
 * U+FFFD, which would store something other than what was sent.
 */
import { isUtf8 } from "node:buffer";
import express, { type RequestHandler } from "express";
import { type ApiError, apiErrors } from "../../platform/errors.js";
import { escapedForDisplay, textProblem, textProblemMessage } from "../../platform/plain-text.js";
import type { OperationId } from "../../../generated/operations.js";
import { operationOf } from "./operation-match.js";

/** The fields of a body that are files of lines, by operation: their tabs and line ends are text (a zone file). */
const FILES_OF_LINES: Partial<Record<OperationId, ReadonlySet<string>>> = { importDomainZone: new Set(["zone_file"]) };

/**
 * body-parser's hook on the raw bytes, before it decodes them: `encoding` is the declared charset,
 * lower-cased, or utf-8 when none is. What it throws reaches the error handler as it is (body-parser
 * only adds properties), so the documented error is built here.
 */
function requireUtf8(_req: unknown, _res: unknown, bytes: Buffer, encoding: string): void {
  if (encoding !== "utf-8") throw apiErrors.unsupportedMediaType("Request bodies must be UTF-8 application/json");
  if (!isUtf8(bytes)) throw apiErrors.badRequest("body", "malformed_utf8", "The body is not valid UTF-8");
}

interface Visit {
  value: unknown;
  /** The object key or array index that leads here; null at the root. */
  key: string | null;
  parent: Visit | null;
}

/** Beyond this depth a field's path keeps its ends: an answer should not grow with the nesting of what it refuses. */
const MAX_NAMED_DEPTH = 16;

/** `records.2.content`, as the validator's errors name fields; the body itself is `body`. */
function fieldOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) keys.push(escapedForDisplay(at.key));
  if (keys.length === 0) return "body";
  keys.reverse();
  const half = MAX_NAMED_DEPTH / 2;
  return (keys.length > MAX_NAMED_DEPTH ? [...keys.slice(0, half), "…", ...keys.slice(-half)] : keys).join(".");
}

/**
 * The first string (value or key) in document order that is not plain text, as the 400 to answer.
 * A loop with its own stack, not recursion: a 1 MiB body can nest deeper than the call stack.
 */
export function bodyTextRefusal(body: unknown, filesOfLines: ReadonlySet<string> = new Set()): ApiError | null {
  const stack: Visit[] = [{ value: body, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === "string") {
      const topLevel = visit.parent !== null && visit.parent.key === null && visit.key !== null;
      const problem = textProblem(value, topLevel && filesOfLines.has(visit.key!));
      if (problem) {
        const field = fieldOf(visit);
        return apiErrors.badRequest(field, problem.code, textProblemMessage(field, problem));
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: visit });
    } else if (typeof value === "object" && value !== null) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (value as Record<string, unknown>)[key], key, parent: visit });
        // The key is checked before the value under it, and named by the same path.
        stack.push({ value: key, key, parent: visit });
      }
    }
  }
  return null;
}

/** Parses `application/json` bodies of at most `limit`; refuses other charsets, bytes that are not UTF-8, and strings that are not plain text. */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, verify: requireUtf8 });
  return (req, res, next) => {
    const operation = operationOf(res.locals);
    const filesOfLines = (operation && FILES_OF_LINES[operation.id]) || undefined;
    parse(req, res, (error?: unknown) => next(error ?? bodyTextRefusal(req.body, filesOfLines) ?? undefined));
  };
}
