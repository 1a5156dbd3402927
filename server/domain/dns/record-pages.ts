/** A domain's record list one page at a time, and the opaque cursors that continue it. */
import { currentRestrictions, recordVisible } from "../access/key-access.js";
import { dnsLimits } from "../../../generated/operations.js";
import { cursorOfAnotherList, readCursor, writeCursor } from "../../platform/opaque-cursors.js";
import type { DnsRecordRow, RecordFilter, RecordListPosition, RecordStore, RecordZone } from "./record-store.js";

export interface RecordPage {
  records: DnsRecordRow[];
  /** Records of the domain the filter selects, in all pages. */
  total: number;
  /** Continues the list after `records`; null when nothing follows. */
  nextCursor: string | null;
}

/** Bumped when the cursor's contents change, so a cursor of the old form is refused, not misread. */
const CURSOR_VERSION = "r1";
/** A cursor of a filtered list: the position, then the filter it continues (type, name; null for none). */
const FILTERED_CURSOR_VERSION = "r2";

const isFiltered = (filter: RecordFilter) => filter.type !== undefined || filter.name !== undefined;
const filterOf = (filter: RecordFilter) => [filter.type ?? null, filter.name?.toLowerCase() ?? null];

/**
 * A cursor is the list position of a page's last record with its domain, as base64url JSON: it
 * holds nothing the partner has not read, and a position stays meaningful after its record is gone.
 */
function cursorAfter(domain: RecordZone, record: DnsRecordRow, filter: RecordFilter): string {
  const position = [domain.id, record.name, record.type, record.createdAt.getTime(), record.id];
  // An unfiltered list keeps the cursors it gave out before lists were filtered.
  return isFiltered(filter)
    ? writeCursor(FILTERED_CURSOR_VERSION, [...position, ...filterOf(filter)])
    : writeCursor(CURSOR_VERSION, position);
}

/** The items of a cursor: the domain, the position (name, type, time, id), then the filter of a filtered list. */
const POSITION_SHAPE = ["text", "text", "text", "instant", "text"] as const;
const FILTERED_SHAPE = [...POSITION_SHAPE, "textOrNull", "textOrNull"] as const;

function positionOf(domain: RecordZone, cursor: string, filter: RecordFilter): RecordListPosition {
  const [domainId, name, type, createdAt, id, ...filterContinued] = isFiltered(filter)
    ? readCursor(cursor, FILTERED_CURSOR_VERSION, FILTERED_SHAPE)
    : readCursor(cursor, CURSOR_VERSION, POSITION_SHAPE);
  if (isFiltered(filter) && JSON.stringify(filterContinued) !== JSON.stringify(filterOf(filter)))
    throw cursorOfAnotherList("continues a list of other filters; send the same type and name");
  if (domainId !== domain.id) throw cursorOfAnotherList("belongs to the record list of another domain");
  // Any name and type make a position to start after; they need not be a record's.
  return { name, type: type as RecordListPosition["type"], createdAt, id };
}

/**
 * How many records a domain's detail (and each domain event) embeds: the record list's first page,
 * which holds the whole zone. Read without the count a page answers, which the detail does not show.
 */
export const EMBEDDED_RECORDS = dnsLimits.records_per_page;

/** At most `limit` of the domain's records the filter selects, in list order: from the start, or after `cursor`. */
export async function recordPage(
  store: RecordStore,
  domain: RecordZone,
  limit: number = dnsLimits.records_per_page,
  cursor?: string,
  filter: RecordFilter = {},
): Promise<RecordPage> {
  const after = cursor === undefined ? null : positionOf(domain, cursor, filter);
  // A key restricted to record names or types lists only the records it may touch: a domain holds few
  // enough (x-dns-limits) to read them whole and leave the others out.
  const restrictions = currentRestrictions();
  if (restrictions?.recordNames || restrictions?.recordTypes) {
    const whole = dnsLimits.records_per_domain;
    const visible = (rows: DnsRecordRow[]) => rows.filter(recordVisible);
    const all = visible(await store.recordPage(domain.id, null, whole, filter));
    const rows = after === null ? all : visible(await store.recordPage(domain.id, after, whole, filter));
    const records = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? cursorAfter(domain, records[records.length - 1]!, filter) : null;
    return { records, total: all.length, nextCursor };
  }
  // One more than asked tells whether a next page exists without a second read.
  const [rows, total] = await Promise.all([store.recordPage(domain.id, after, limit + 1, filter), store.countRecords(domain.id, filter)]);
  const records = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? cursorAfter(domain, records[records.length - 1]!, filter) : null;
  return { records, total, nextCursor };
}
