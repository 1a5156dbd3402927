/**
 * The opaque cursors of the paged lists: a list position (and what the list continues) as
 * base64url JSON. Each list decides what its cursor holds; this module only writes and reads it,
 * refusing with 400 `invalid_cursor` anything no list gave out.
 */
import { Buffer } from "node:buffer";
import { apiErrors } from "./errors.js";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const cursorNotOurs = () =>
  apiErrors.badRequest("cursor", "invalid_cursor", "cursor is not one this list gave out; start again without it");

/** 400 for a cursor of the right form that continues another list (another domain, user or filters). */
export const cursorOfAnotherList = (why: string) => apiErrors.badRequest("cursor", "invalid_cursor", `cursor ${why}`);

export function writeCursor(content: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(content)).toString("base64url");
}

/** The cursor's content, an array starting with `version` of `length` items; 400 invalid_cursor otherwise. */
export function readCursor(cursor: string, version: string, length: number): unknown[] {
  if (!BASE64URL.test(cursor)) throw cursorNotOurs();
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw cursorNotOurs();
  }
  if (!Array.isArray(content) || content.length !== length || content[0] !== version) throw cursorNotOurs();
  return content as unknown[];
}
