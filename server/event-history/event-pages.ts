/** The partner's event list one page at a time, and the opaque cursors that continue it. */
import { Buffer } from "node:buffer";
import { apiErrors } from "../errors.js";
import type { EventType, OutboxEvent } from "../events.js";
import { textProblem } from "../plain-text.js";
import type { EventListPosition, EventStore } from "./event-store.js";

/** Bumped when the cursor's contents change, so a cursor of the old form is refused, not misread. */
const CURSOR_VERSION = "e1";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface EventListQuery {
  type?: readonly EventType[];
  created_after?: string;
  created_before?: string;
  limit?: number;
  cursor?: string;
}

/** The filters a cursor continues, in one comparable form. */
const filtersOf = (query: EventListQuery) =>
  JSON.stringify([[...(query.type ?? [])].sort(), query.created_after ?? null, query.created_before ?? null]);

const notOurs = () => apiErrors.badRequest("cursor", "invalid_cursor", "cursor is not one this list gave out; start again without it");

function cursorAfter(event: OutboxEvent, query: EventListQuery): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, event.createdAt.getTime(), event.id, filtersOf(query)])).toString("base64url");
}

function positionOf(cursor: string, query: EventListQuery): EventListPosition {
  if (!BASE64URL.test(cursor)) throw notOurs();
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw notOurs();
  }
  if (!Array.isArray(content) || content.length !== 4) throw notOurs();
  const [version, createdAt, id, filters] = content as unknown[];
  if (version !== CURSOR_VERSION || typeof id !== "string" || textProblem(id) !== null) throw notOurs();
  if (typeof createdAt !== "number" || !Number.isSafeInteger(createdAt)) throw notOurs();
  if (filters !== filtersOf(query))
    throw apiErrors.badRequest("cursor", "invalid_cursor", "cursor continues a list of other filters; send the same ones");
  return { createdAt: new Date(createdAt), id };
}

/** A page of the partner's events, newest first, with the cursor of the next. */
export async function eventPage(store: EventStore, partnerId: string, query: EventListQuery) {
  const limit = query.limit ?? 20;
  const rows = await store.eventPage(partnerId, {
    types: query.type && query.type.length > 0 ? query.type : null,
    createdAfter: query.created_after ? new Date(query.created_after) : null,
    createdBefore: query.created_before ? new Date(query.created_before) : null,
    after: query.cursor === undefined ? null : positionOf(query.cursor, query),
    // One more than asked tells whether a next page exists without a second read.
    limit: limit + 1,
  });
  const events = rows.slice(0, limit);
  return { events, nextCursor: rows.length > limit ? cursorAfter(events[events.length - 1]!, query) : null };
}
