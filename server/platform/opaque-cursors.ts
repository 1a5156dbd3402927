/**
 * The opaque cursors of the paged lists: a list position (and what the list continues) as
 * base64url JSON. Each list decides what its cursor holds, as a shape of typed items; this module
 * is the one place that reads a cursor back into those typed values, refusing with 400
 * `invalid_cursor` anything no list gave out, so no forged value reaches a store.
 */
import { Buffer } from "node:buffer";
import { LAST_FOUR_DIGIT_YEAR } from "./clock.js";
import { apiErrors } from "./errors.js";
import { textProblem } from "./plain-text.js";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const cursorNotOurs = () =>
  apiErrors.badRequest("cursor", "invalid_cursor", "cursor is not one this list gave out; start again without it");

/** 400 for a cursor of the right form that continues another list (another domain, user or filters). */
export const cursorOfAnotherList = (why: string) => apiErrors.badRequest("cursor", "invalid_cursor", `cursor ${why}`);

const NOT_OURS = Symbol("not ours");

/** No list gives out text holding a control character: nothing stored holds one (server/platform/plain-text.ts). */
const readText = (item: unknown) => (typeof item === "string" && textProblem(item) === null ? item : NOT_OURS);

/**
 * Every time the service stores and answers lies in years 1970 to 9999; outside them a millisecond
 * count is no time JavaScript and PostgreSQL agree on (an invalid Date, or a year PostgreSQL
 * refuses), which reached the stores as a 500.
 */
const readInstant = (item: unknown) =>
  typeof item === "number" && Number.isInteger(item) && item >= 0 && item <= LAST_FOUR_DIGIT_YEAR ? new Date(item) : NOT_OURS;

/** How each kind of item a cursor holds is read back. */
const itemReaders = {
  text: readText,
  /** Text, or null for a filter the list was not given. */
  textOrNull: (item: unknown) => (item === null ? null : readText(item)),
  /** A time as its milliseconds since 1970, read back as a Date. */
  instant: readInstant,
  /** A count (a number of things, such as a user's domains): an integer from 0 to the largest int32, as the stores keep it. */
  count: (item: unknown) => (typeof item === "number" && Number.isInteger(item) && item >= 0 && item <= 2_147_483_647 ? item : NOT_OURS),
} satisfies Record<string, (item: unknown) => unknown>;

export type CursorItemKind = keyof typeof itemReaders;
type CursorItem<Kind extends CursorItemKind> = Exclude<ReturnType<(typeof itemReaders)[Kind]>, typeof NOT_OURS>;
/** What a cursor of a shape reads back as: its items, typed, without the version. */
export type CursorContent<Shape extends readonly CursorItemKind[]> = { -readonly [At in keyof Shape]: CursorItem<Shape[At]> };

/** A cursor holding `version`, then the items; a time goes in as its milliseconds (`getTime()`). */
export function writeCursor(version: string, items: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify([version, ...items])).toString("base64url");
}

/** The cursor's items read as `shape` says, after `version`; 400 invalid_cursor for anything else. */
export function readCursor<const Shape extends readonly CursorItemKind[]>(
  cursor: string,
  version: string,
  shape: Shape,
): CursorContent<Shape> {
  if (!BASE64URL.test(cursor)) throw cursorNotOurs();
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw cursorNotOurs();
  }
  if (!Array.isArray(content) || content.length !== shape.length + 1 || content[0] !== version) throw cursorNotOurs();
  const items = shape.map((kind, at) => itemReaders[kind](content[at + 1]));
  if (items.includes(NOT_OURS)) throw cursorNotOurs();
  return items as CursorContent<Shape>;
}
