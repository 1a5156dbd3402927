/** A partner's users as stored, and the port of the store that keeps them. */
import type { Cents } from "../../platform/money.js";

export interface UserRow {
  partnerId: string;
  userIdentifier: string;
  email: string | null;
  createdAt: Date;
  lastLogin: Date;
  updatedAt: Date;
  totalSpent: Cents;
}

export type UserSort = "created_at" | "last_login" | "domain_count";

/**
 * A user of a page with its domain count. The row is the stored one, read-only, where other reads
 * hand out copies: a page is turned into its answer at once, and copying it showed in CPU
 * profiles. (Not spread into one object either: V8 copies `{ ...row }` on a fast path that
 * `{ ...row, more }` misses; measured in bench/results/.)
 */
export interface UserPageEntry {
  readonly user: Readonly<UserRow>;
  readonly domainCount: number;
}

/**
 * A place in the users list of one sort and order: a user's sort value and identifier. The list
 * continues with the users that sort after it, whether or not that user is still there.
 */
export interface UserListPosition {
  /** The sort key's value: a time as its milliseconds since 1970, or the domain count. */
  sortValue: number;
  userIdentifier: string;
}

export interface UserPageQuery {
  limit: number;
  /** Users skipped from the start, or from `after` when given. */
  offset: number;
  sort: UserSort;
  order: "asc" | "desc";
  /** The page starts after this place (keyset paging): a deep page costs what the first costs. */
  after?: UserListPosition | null;
}

/** The users of every partner; deleting one deletes all that belongs to it. */
export interface UserStore {
  findUser(partnerId: string, userIdentifier: string): Promise<UserRow | undefined>;
  saveUser(user: UserRow): Promise<void>;
  /** A page of users, each with its domain count (the list shows it for every user). */
  listUsers(partnerId: string, query: UserPageQuery): Promise<{ users: UserPageEntry[]; total: number }>;
  /** Deletes the user with its domains, records, transfers and sessions (login and embed; each browser session leaves an EndedEmbedSessionRow). */
  deleteUser(partnerId: string, userIdentifier: string): Promise<void>;
  /** Deletes every user of the partner, with all that belongs to them (a sandbox reset). */
  deletePartnerData(partnerId: string): Promise<void>;
  /** Partners with at least one user: whose time-based changes may fall due. */
  partnersWithData(): Promise<string[]>;
}
