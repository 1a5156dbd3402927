/**
 * The dashboard's "Older" link into a partner's request log: the place of the last entry shown,
 * its time and request id, both the partner's own. Nothing in it counts across partners (an
 * earlier link carried a sequence number shared by all, which told each partner the others' volume).
 */
import { Buffer } from "node:buffer";
import type { RequestLogPosition } from "./request-history-store.js";

/** Bumped when the content changes, so a link of the old form is refused, not misread. */
const VERSION = "r1";
const BASE64URL = /^[A-Za-z0-9_-]{1,400}$/;
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

export function writeRequestLogCursor(position: RequestLogPosition): string {
  return Buffer.from(JSON.stringify([VERSION, position.at.getTime(), position.requestId])).toString("base64url");
}

/** The place a cursor names, or null for anything this log did not give out. */
export function readRequestLogCursor(cursor: string): RequestLogPosition | null {
  if (!BASE64URL.test(cursor)) return null;
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(content) || content.length !== 3 || content[0] !== VERSION) return null;
  const [, at, requestId] = content as unknown[];
  if (typeof at !== "number" || !Number.isSafeInteger(at) || Math.abs(at) > 8.64e15) return null;
  if (typeof requestId !== "string" || !REQUEST_ID.test(requestId)) return null;
  return { at: new Date(at), requestId };
}
