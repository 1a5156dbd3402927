/** The partner's users list one page at a time, by offset or by the opaque cursors that continue it. */
import { apiErrors } from "../../platform/errors.js";
import { cursorOfAnotherList, readCursor, writeCursor } from "../../platform/opaque-cursors.js";
import type { UserListPosition, UserPageEntry, UserSort, UserStore } from "./user-store.js";

/** Bumped when the cursor's contents change, so a cursor of the old form is refused, not misread. */
const CURSOR_VERSION = "u1";

export interface UserListQuery {
  limit: number;
  offset: number;
  sort: UserSort;
  order: "asc" | "desc";
  cursor?: string | undefined;
}

export interface UserPage {
  users: UserPageEntry[];
  total: number;
  nextCursor: string | null;
}

/** The value a user sorts by in the list of `sort`, as a cursor holds it (UserListPosition.sortValue). */
function sortValueOf({ user, domainCount }: UserPageEntry, sort: UserSort): number {
  if (sort === "domain_count") return domainCount;
  return (sort === "last_login" ? user.lastLogin : user.createdAt).getTime();
}

/**
 * A cursor is the list position of a page's last user with the sort and order it continues, as
 * base64url JSON: it holds nothing the partner has not read.
 */
function cursorAfter(query: UserListQuery, entry: UserPageEntry): string {
  return writeCursor(CURSOR_VERSION, [query.sort, query.order, sortValueOf(entry, query.sort), entry.user.userIdentifier]);
}

/** The cursor's place, read as the list of `query.sort` writes it: a time for the time sorts, a count for domain_count. */
function readPosition(query: UserListQuery, cursor: string) {
  if (query.sort === "domain_count") return readCursor(cursor, CURSOR_VERSION, ["text", "text", "count", "text"]);
  const [sort, order, at, userIdentifier] = readCursor(cursor, CURSOR_VERSION, ["text", "text", "instant", "text"]);
  return [sort, order, at.getTime(), userIdentifier] as const;
}

function positionOf(query: UserListQuery, cursor: string): UserListPosition {
  const [sort, order, sortValue, userIdentifier] = readPosition(query, cursor);
  if (sort !== query.sort || order !== query.order)
    throw cursorOfAnotherList(
      "continues the list of another sort or order; send the sort and order of its list, or start again without it",
    );
  return { sortValue, userIdentifier };
}

/** A page of the partner's users in list order (the sort key, ties by user_identifier ascending), and the cursor after it. */
export async function userPage(store: UserStore, partnerId: string, query: UserListQuery): Promise<UserPage> {
  if (query.cursor !== undefined && query.offset !== 0)
    throw apiErrors.badRequest("offset", "invalid_value", "offset cannot be sent with cursor: the cursor says where the page starts");
  const after = query.cursor === undefined ? null : positionOf(query, query.cursor);
  // One more than asked tells whether a next page exists without a second read.
  const { users: rows, total } = await store.listUsers(partnerId, {
    limit: query.limit + 1,
    offset: query.offset,
    sort: query.sort,
    order: query.order,
    after,
  });
  const users = rows.length > query.limit ? rows.slice(0, query.limit) : rows;
  const nextCursor = rows.length > query.limit ? cursorAfter(query, users[users.length - 1]!) : null;
  return { users, total, nextCursor };
}
