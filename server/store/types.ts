/** What the service stores, and the interface every store implements; handlers use only this. */
import type { components } from "../../generated/types/full.js";
import type { Cents } from "../money.js";

type Schemas = components["schemas"];

export interface UserRow {
  partnerId: string;
  userIdentifier: string;
  email: string | null;
  createdAt: Date;
  lastLogin: Date;
  updatedAt: Date;
  totalSpent: Cents;
}

export interface DomainRow {
  id: string;
  partnerId: string;
  userIdentifier: string;
  name: string;
  status: Schemas["DomainStatus"];
  purchasedAt: Date;
  expiresAt: Date;
  autoRenew: boolean;
  whoisPrivacy: boolean;
  nameservers: string[];
  registrationPrice: Cents;
  renewalPrice: Cents;
  currency: string;
  updatedAt: Date;
}

/** One record store serves both variants: content is kept in Variant D's form. */
export interface DnsRecordRow {
  id: string;
  domainId: string;
  type: Schemas["DnsRecordType"];
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A record's place in its domain's list: by name without regard to case, compared character by
 * character in code-point order (a database collates it as "C"), then type, then creation, then
 * id. Every record has one place, so a page can start after any place, held by a record or not.
 */
export interface RecordListPosition {
  name: string;
  type: DnsRecordRow["type"];
  createdAt: Date;
  id: string;
}

/** Which of a domain's records a list shows: all, or those of one type, at one name (without regard to case), or both. */
export interface RecordFilter {
  type?: DnsRecordRow["type"];
  name?: string;
}

export interface TransferRow {
  id: string;
  partnerId: string;
  userIdentifier: string;
  domainName: string;
  status: Schemas["TransferStatusValue"];
  authCode: string;
  extendRegistration: boolean;
  cost: Cents;
  currency: string;
  startedAt: Date;
  estimatedCompletion: Date;
  completedAt: Date | null;
  domainId: string | null;
  /** Every status reached, oldest first. */
  history: Array<{ status: Schemas["TransferStatusValue"]; at: Date }>;
}

export interface SessionRow {
  tokenHash: string;
  partnerId: string;
  userIdentifier: string;
  expiresAt: Date;
  /** The embedded interface's language the partner chose for this session (a canonical BCP 47 tag), or null to follow the browser. */
  locale: string | null;
}

/**
 * A browser's session in the embedded interface, opened by exchanging a login_url token. It lives
 * as long as the login session it came from (the 24 hours of that token) and ends with it.
 */
export interface EmbedSessionRow {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  idHash: string;
  /** The login session (SessionRow.tokenHash) it was opened from. */
  loginTokenHash: string;
  partnerId: string;
  userIdentifier: string;
  /** Synchronizer token every form of this session carries (CSRF). */
  csrfToken: string;
}

/**
 * What is kept of a browser session whose user was deleted: enough to answer its cookie with the
 * session-ended page (410) and clear it, as the end of its 24 hours does, and nothing of the user.
 */
export interface EndedEmbedSessionRow {
  idHash: string;
  partnerId: string;
  /** When its login session would have ended; the periodic sweep removes the row then. */
  expiresAt: Date;
}

/** A domain's place in its user's list: newest purchase first, then by name in code-point order. */
export interface DomainListPosition {
  purchasedAt: Date;
  name: string;
}

export interface DomainPageQuery {
  /** Only domains of this status; null for all. */
  status: DomainRow["status"] | null;
  /** Start after this place; null from the start. */
  after: DomainListPosition | null;
  limit: number;
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

export interface UserPageQuery {
  limit: number;
  offset: number;
  sort: UserSort;
  order: "asc" | "desc";
}

export interface Store {
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
  /** Partners with login sessions or what is kept of a deleted user's browser sessions: whose sweep may remove some. */
  partnersWithSessions(): Promise<string[]>;

  findDomain(id: string): Promise<DomainRow | undefined>;
  findDomainByName(name: string): Promise<DomainRow | undefined>;
  domainsOfUser(partnerId: string, userIdentifier: string): Promise<DomainRow[]>;
  countDomains(partnerId: string, userIdentifier: string): Promise<number>;
  /** At most `limit` of the user's domains in list order (DomainListPosition), and how many the status selects in all pages. */
  domainPage(partnerId: string, userIdentifier: string, query: DomainPageQuery): Promise<{ domains: DomainRow[]; total: number }>;
  /** The partner's active domains whose registration ends by `until` (what the sweep expires or renews). */
  activeDomainsEndingBy(partnerId: string, until: Date): Promise<DomainRow[]>;
  saveDomain(domain: DomainRow): Promise<void>;

  findRecord(id: string): Promise<DnsRecordRow | undefined>;
  /** Every record of the domain, in list order (RecordListPosition). */
  recordsOfDomain(domainId: string): Promise<DnsRecordRow[]>;
  /** At most `limit` records of the domain in list order, from the start or after `after`, of those the filter selects. */
  recordPage(domainId: string, after: RecordListPosition | null, limit: number, filter?: RecordFilter): Promise<DnsRecordRow[]>;
  /** The domain's records at a name, compared without regard to case as DNS does. */
  recordsAtName(domainId: string, name: string): Promise<DnsRecordRow[]>;
  /** The domain's records, or those the filter selects. */
  countRecords(domainId: string, filter?: RecordFilter): Promise<number>;
  /**
   * Adds new records to one domain, all or none: none when the domain would then hold more than
   * `maxRecords`; answers whether they were added. The count and the writes are one step (one
   * transaction locking the domain in a database store), so concurrent writers cannot both pass.
   */
  addRecords(domainId: string, records: readonly DnsRecordRow[], maxRecords: number): Promise<boolean>;
  /** Stores a changed record, or a new one without a bound (fixtures; what partners create goes through addRecords). */
  saveRecord(record: DnsRecordRow): Promise<void>;
  deleteRecord(id: string): Promise<void>;

  findTransfer(id: string): Promise<TransferRow | undefined>;
  /** The partner's pending and in-progress transfers. */
  activeTransfersOfPartner(partnerId: string): Promise<TransferRow[]>;
  /** The pending or in-progress transfer of a name, if any. */
  activeTransferOf(domainName: string): Promise<TransferRow | undefined>;
  saveTransfer(transfer: TransferRow): Promise<void>;

  saveSession(session: SessionRow): Promise<void>;
  findSession(tokenHash: string): Promise<SessionRow | undefined>;
  /** The token hashes of the user's login sessions, oldest first. */
  sessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]>;
  /** Deletes a login session with the browser sessions opened from it. */
  deleteSession(tokenHash: string): Promise<void>;
  /**
   * Deletes the partner's login sessions that ended by `now` (the partner's time), with the browser
   * sessions opened from them; returns how many login sessions it deleted.
   */
  deleteEndedSessions(partnerId: string, now: Date): Promise<number>;

  saveEmbedSession(session: EmbedSessionRow): Promise<void>;
  findEmbedSession(idHash: string): Promise<EmbedSessionRow | undefined>;
  findEndedEmbedSession(idHash: string): Promise<EndedEmbedSessionRow | undefined>;
  /** The id hashes of the user's browser sessions, oldest first. */
  embedSessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]>;
  deleteEmbedSession(idHash: string): Promise<void>;
}
