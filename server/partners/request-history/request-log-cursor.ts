/**
 * The dashboard's "Older" link into a partner's request log: the place of the last entry shown,
 * its time and request id, both the partner's own. Nothing in it counts across partners (an
 * earlier link carried a sequence number shared by all, which told each partner the others' volume).
 * Written and read as the API's cursors are (server/platform/opaque-cursors.ts).
 */
import { ApiError } from "../../platform/errors.js";
import { readCursor, writeCursor } from "../../platform/opaque-cursors.js";
import type { RequestLogPosition } from "./request-history-store.js";

/** Bumped when the content changes, so a link of the old form is refused, not misread. */
const VERSION = "r1";

export const writeRequestLogCursor = (position: RequestLogPosition): string =>
  writeCursor(VERSION, [position.at.getTime(), position.requestId]);

/** The place a cursor names, or null for anything this log did not give out. */
export function readRequestLogCursor(cursor: string): RequestLogPosition | null {
  try {
    const [at, requestId] = readCursor(cursor, VERSION, ["instant", "text"] as const);
    return { at, requestId };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
