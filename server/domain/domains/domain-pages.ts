/** A user's domain list one page at a time, and the opaque cursors that continue it. */
import { currentRestrictions, domainVisible } from "../access/key-access.js";
import { cursorOfAnotherList, readCursor, writeCursor } from "../../platform/opaque-cursors.js";
import type { DomainListPosition, DomainRow, DomainStore } from "./domain-store.js";

/** Bumped when the cursor's contents change, so a cursor of the old form is refused, not misread. */
const CURSOR_VERSION = "d1";

export interface DomainListQuery {
  /** Absent with `cursor` absent too: the whole list, as v1 answered before it was paged. */
  limit?: number;
  cursor?: string;
  status?: DomainRow["status"];
}

export interface DomainPage {
  domains: DomainRow[];
  total: number;
  nextCursor: string | null;
}

/** What a page answers when nothing bounds it: every domain a user may hold, in one. */
const WHOLE_LIST = Number.MAX_SAFE_INTEGER;
/** A page's size when only `cursor` is given. */
const DEFAULT_LIMIT = 100;

/**
 * A cursor is the list position of a page's last domain, with the user and the status filter it
 * continues, as base64url JSON: it holds nothing the partner has not read.
 */
function cursorAfter(userIdentifier: string, status: string | null, domain: DomainRow): string {
  return writeCursor(CURSOR_VERSION, [userIdentifier, status, domain.purchasedAt.getTime(), domain.name]);
}

function positionOf(userIdentifier: string, status: string | null, cursor: string): DomainListPosition {
  const [user, filter, purchasedAt, name] = readCursor(cursor, CURSOR_VERSION, ["text", "textOrNull", "instant", "text"]);
  if (user !== userIdentifier) throw cursorOfAnotherList("belongs to the domain list of another user");
  if (filter !== status) throw cursorOfAnotherList("continues a list of another status; send the same status");
  return { purchasedAt, name };
}

/** A page of the user's domains in list order (newest purchase first, ties by name). */
export async function domainPage(
  store: DomainStore,
  partnerId: string,
  userIdentifier: string,
  query: DomainListQuery,
): Promise<DomainPage> {
  const status = query.status ?? null;
  const after = query.cursor === undefined ? null : positionOf(userIdentifier, status, query.cursor);
  const limit = query.limit ?? (query.cursor === undefined ? WHOLE_LIST : DEFAULT_LIMIT);
  // A key restricted to some domains lists only those: read the user's whole list and leave the others out.
  if (currentRestrictions()?.domains) {
    const visible = (page: { domains: DomainRow[] }) => page.domains.filter((domain) => domainVisible(domain.name));
    const whole = visible(await store.domainPage(partnerId, userIdentifier, { status, after: null, limit: WHOLE_LIST }));
    const rows = after === null ? whole : visible(await store.domainPage(partnerId, userIdentifier, { status, after, limit: WHOLE_LIST }));
    const domains = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? cursorAfter(userIdentifier, status, domains[domains.length - 1]!) : null;
    return { domains, total: whole.length, nextCursor };
  }
  // One more than asked tells whether a next page exists without a second read.
  const { domains: rows, total } = await store.domainPage(partnerId, userIdentifier, {
    status,
    after,
    limit: limit === WHOLE_LIST ? limit : limit + 1,
  });
  const domains = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? cursorAfter(userIdentifier, status, domains[domains.length - 1]!) : null;
  return { domains, total, nextCursor };
}
