/** The partner's event list one page at a time, and the opaque cursors that continue it. */
import type { EventType, OutboxEvent } from "../../platform/events.js";
import { cursorOfAnotherList, readCursor, writeCursor } from "../../platform/opaque-cursors.js";
import type { EventListPosition, EventStore } from "./event-store.js";

/** Bumped when the cursor's contents change, so a cursor of the old form is refused, not misread. */
const CURSOR_VERSION = "e1";

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

function cursorAfter(event: OutboxEvent, query: EventListQuery): string {
  return writeCursor(CURSOR_VERSION, [event.createdAt.getTime(), event.id, filtersOf(query)]);
}

function positionOf(cursor: string, query: EventListQuery): EventListPosition {
  const [createdAt, id, filters] = readCursor(cursor, CURSOR_VERSION, ["instant", "text", "text"]);
  if (filters !== filtersOf(query)) throw cursorOfAnotherList("continues a list of other filters; send the same ones");
  return { createdAt, id };
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
