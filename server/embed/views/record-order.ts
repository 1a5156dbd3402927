/** The order of the records table: a column and a direction from the page's query, the name's by default. */
import type { DnsRecordRow } from "../../domain/dns/record-store.js";

export const SORT_COLUMNS = ["type", "name", "content", "ttl"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface RecordSort {
  column: SortColumn;
  order: "asc" | "desc";
}

const DEFAULT_SORT: RecordSort = { column: "name", order: "asc" };

/** The query's order; anything else is the default order (a sort link is a convenience, never an error). */
export function recordSortOf(query: Record<string, unknown>): RecordSort {
  const column = (SORT_COLUMNS as readonly unknown[]).includes(query.sort) ? (query.sort as SortColumn) : DEFAULT_SORT.column;
  const order = query.order === "desc" ? "desc" : "asc";
  return { column, order };
}

// Code-point order, as the API lists (never the locale's collation, which would order differently per reader).
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `@` is the domain itself: it comes before every other name. */
const nameKey = (name: string) => (name === "@" ? "" : name);

const COMPARE: Record<SortColumn, (a: DnsRecordRow, b: DnsRecordRow) => number> = {
  type: (a, b) => compareText(a.type, b.type),
  name: (a, b) => compareText(nameKey(a.name), nameKey(b.name)),
  content: (a, b) => compareText(a.content, b.content),
  ttl: (a, b) => a.ttl - b.ttl,
};

/** The records in the order asked for; ties by name, type, value, then id, so the order is the same on every load. */
export function sortRecords(records: readonly DnsRecordRow[], sort: RecordSort): DnsRecordRow[] {
  const direction = sort.order === "asc" ? 1 : -1;
  const ties = SORT_COLUMNS.filter((column) => column !== sort.column && column !== "ttl");
  return [...records].sort(
    (a, b) =>
      direction * COMPARE[sort.column](a, b) ||
      ties.reduce((result, column) => result || COMPARE[column](a, b), 0) ||
      compareText(a.id, b.id),
  );
}
