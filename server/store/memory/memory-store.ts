/**
 * In-memory Store: Maps with the indexes the operations need, so lookups never scan. Every
 * collection it writes is journaled (undo-journal.ts), so a unit of work that throws leaves it as
 * it was; rows are replaced, never changed in place, for the same reason.
 */
import { MemoryDelegationStore } from "./memory-delegation-store.js";
import { MemoryTransferOutStore } from "./memory-transfer-out-store.js";
import { MemoryConnectionStore } from "./memory-connection-store.js";
import { SortedKeys } from "./sorted-keys.js";
import { JournaledMap, JournaledSet, journaling, recordUndo, UnorderedJournaledSet } from "./undo-journal.js";
import { type DomainDetailParts, readDetailParts } from "../../domain/domains/domain-detail-store.js";
import type { DnsRecordRow, RecordFilter, RecordListPosition } from "../../domain/dns/record-store.js";
import type { DomainListPosition, DomainPageQuery, DomainRow } from "../../domain/domains/domain-store.js";
import type { EmbedSessionRow, EndedEmbedSessionRow, SessionRow } from "../../domain/sessions/session-store.js";
import type { Store } from "../store.js";
import type { TransferRow } from "../../domain/transfers/transfer-store.js";
import type { UserListPosition, UserPageQuery, UserRow, UserSort, UserPageEntry } from "../../domain/users/user-store.js";

const userKey = (partnerId: string, userIdentifier: string) => `${partnerId}\u0000${userIdentifier}`;
/** DNS names compare without regard to case. */
const recordNameKey = (domainId: string, name: string) => `${domainId}\u0000${name.toLowerCase()}`;
/**
 * A record's place in its domain's list (RecordListPosition) as one string that sorts the same
 * way: NUL sorts below every character of a name, type or id, and the time has a fixed width.
 */
const listKey = (at: RecordListPosition) =>
  `${at.name.toLowerCase()}\u0000${at.type}\u0000${String(at.createdAt.getTime()).padStart(16, "0")}\u0000${at.id}`;
const idOfListKey = (key: string) => key.slice(key.lastIndexOf("\u0000") + 1);
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Whether a domain comes after a place in its user's list (DomainListPosition). */
const isAfter = (domain: DomainRow, at: DomainListPosition) =>
  domain.purchasedAt.getTime() < at.purchasedAt.getTime() ||
  (domain.purchasedAt.getTime() === at.purchasedAt.getTime() && domain.name > at.name);

/** Adds to a Set held in a Map, creating it on first use (in insertion order when `ordered`). */
function addToIndex<K, V>(index: Map<K, Set<V>>, key: K, value: V, ordered = false): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = ordered ? new JournaledSet() : new UnorderedJournaledSet()));
  set.add(value);
}

/** SortedKeys whose inserts and removals within a unit of work are undone should it throw. */
class JournaledSortedKeys<K> extends SortedKeys<K> {
  override insert(key: K): void {
    super.insert(key);
    if (journaling()) recordUndo(() => super.remove(key));
  }

  override remove(key: K): void {
    const size = this.size;
    super.remove(key);
    // Undone newest first, so the comparator reads the rows as they were when the key was removed.
    if (this.size < size && journaling()) recordUndo(() => super.insert(key));
  }
}

/** Removes from a Set held in a Map, and the Set once empty, so no key outlives what it indexed. */
function removeFromIndex<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key);
  if (set?.delete(value) && set.size === 0) index.delete(key);
}

export class MemoryStore implements Store {
  readonly delegations = new MemoryDelegationStore();
  readonly transferOut = new MemoryTransferOutStore();
  readonly connections = new MemoryConnectionStore();
  private readonly users = new JournaledMap<string, UserRow>();
  private readonly usersByPartner = new JournaledMap<string, Set<string>>();
  private readonly domains = new JournaledMap<string, DomainRow>();
  private readonly domainIdByName = new JournaledMap<string, string>();
  private readonly domainIdsByUser = new JournaledMap<string, Set<string>>();
  private readonly records = new JournaledMap<string, DnsRecordRow>();
  /** Per domain, its records' list keys in list order: pages start anywhere without sorting the zone. */
  private readonly recordListByDomain = new JournaledMap<string, SortedKeys<string>>();
  /**
   * Conflict checks read the records at one name; a zone can hold thousands. Most names hold one
   * record, so the id is kept as it is and becomes a Set only when a second joins it: a Set per
   * name cost about 230 bytes per record at a million records.
   */
  private readonly recordIdsByName = new JournaledMap<string, string | Set<string>>();
  private readonly transfers = new JournaledMap<string, TransferRow>();
  private readonly activeTransferIdByName = new JournaledMap<string, string>();
  private readonly transferIdsByUser = new JournaledMap<string, Set<string>>();
  private readonly sessions = new JournaledMap<string, SessionRow>();
  /** Sets keep insertion order: each user's sessions oldest first (for the bound per user). */
  private readonly sessionHashesByUser = new JournaledMap<string, Set<string>>();
  /**
   * Each partner's sessions in the order they were created, which is the order they end: every
   * session lives as long, by its partner's clock, and that clock only moves forward (a sandbox
   * reset deletes the partner's sessions with it). Removing the ended ones reads only those, from
   * the front. (Should the system clock step back, a session created after the step ends a little
   * before the one ahead of it and is removed with that one; lookups check the end time anyway.)
   */
  private readonly sessionHashesByPartner = new JournaledMap<string, Set<string>>();
  private readonly embedSessions = new JournaledMap<string, EmbedSessionRow>();
  private readonly embedSessionHashesByUser = new JournaledMap<string, Set<string>>();
  private readonly endedEmbedSessions = new JournaledMap<string, EndedEmbedSessionRow>();
  /** The ended browser sessions of each partner, which that partner's sweep removes. */
  private readonly endedEmbedSessionHashesByPartner = new JournaledMap<string, Set<string>>();
  /** The browser sessions opened from each login session, which end with it. */
  private readonly embedSessionHashesByLogin = new JournaledMap<string, Set<string>>();

  /** Per partner, the user keys in the order of every sort and direction of the user list. */
  private readonly userOrders = new JournaledMap<string, Record<`${UserSort}:${"asc" | "desc"}`, SortedKeys<string>>>((orders) =>
    Object.values(orders).every((order) => order.size === 0),
  );

  private sortValue(sort: UserSort, key: string): number {
    const user = this.users.get(key)!;
    if (sort === "domain_count") return this.domainIdsByUser.get(key)?.size ?? 0;
    return (sort === "last_login" ? user.lastLogin : user.createdAt).getTime();
  }

  private ordersOf(partnerId: string) {
    let orders = this.userOrders.get(partnerId);
    if (!orders) {
      // Ties are broken by user_identifier ascending in both directions, so pages are stable.
      const byIdentifier = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const order = (sort: UserSort, direction: 1 | -1) =>
        new JournaledSortedKeys<string>((a, b) => direction * (this.sortValue(sort, a) - this.sortValue(sort, b)) || byIdentifier(a, b));
      orders = {
        "created_at:asc": order("created_at", 1),
        "created_at:desc": order("created_at", -1),
        "last_login:asc": order("last_login", 1),
        "last_login:desc": order("last_login", -1),
        "domain_count:asc": order("domain_count", 1),
        "domain_count:desc": order("domain_count", -1),
      };
      this.userOrders.set(partnerId, orders);
    }
    return orders;
  }

  /** Re-sorts a user in the orders of one sort key around a change of its value. */
  private reorder(partnerId: string, key: string, sorts: readonly UserSort[], change: () => void): void {
    const orders = this.ordersOf(partnerId);
    const affected = sorts.flatMap((sort) => [orders[`${sort}:asc`], orders[`${sort}:desc`]]);
    if (this.users.has(key)) affected.forEach((order) => order.remove(key));
    change();
    if (this.users.has(key)) affected.forEach((order) => order.insert(key));
  }

  async findUser(partnerId: string, userIdentifier: string): Promise<UserRow | undefined> {
    return this.users.get(userKey(partnerId, userIdentifier));
  }

  async saveUser(user: UserRow): Promise<void> {
    const key = userKey(user.partnerId, user.userIdentifier);
    const existing = this.users.get(key);
    if (!existing) {
      this.users.set(key, { ...user });
      addToIndex(this.usersByPartner, user.partnerId, key);
      const orders = this.ordersOf(user.partnerId);
      Object.values(orders).forEach((order) => order.insert(key));
      return;
    }
    // Only the orders whose sort value changed move: a login moves the user in two of six.
    const changed: UserSort[] = [];
    if (existing.createdAt.getTime() !== user.createdAt.getTime()) changed.push("created_at");
    if (existing.lastLogin.getTime() !== user.lastLogin.getTime()) changed.push("last_login");
    this.reorder(user.partnerId, key, changed, () => this.users.set(key, { ...user }));
  }

  async listUsers(
    partnerId: string,
    { limit, offset, sort, order, after = null }: UserPageQuery,
  ): Promise<{ users: UserPageEntry[]; total: number }> {
    const keys = this.ordersOf(partnerId)[`${sort}:${order}`];
    // After a cursor's place, a binary search finds the page: a deep page costs what the first does.
    const pageKeys =
      after === null ? keys.page(offset, limit) : keys.following(this.fromUserPlace(sort, order, after), offset + limit).slice(offset);
    // Counted by the index key the page holds: building the key again per user showed in profiles.
    // The rows are lent read-only (see UserPageEntry), not copied: a page is turned into its answer at once.
    const users = pageKeys.map((key) => ({ user: this.users.get(key)!, domainCount: this.domainIdsByUser.get(key)?.size ?? 0 }));
    return { users, total: keys.size };
  }

  /** Where a user key stands from a place in the order of `sort` and `order`: above 0 after it (SortedKeys.following). */
  private fromUserPlace(sort: UserSort, order: "asc" | "desc", at: UserListPosition): (key: string) => number {
    const direction = order === "asc" ? 1 : -1;
    // The same order as ordersOf's comparators: the sort value, then the identifier ascending in both directions.
    return (key) => {
      const identifier = this.users.get(key)!.userIdentifier;
      return direction * (this.sortValue(sort, key) - at.sortValue) || byCodeUnits(identifier, at.userIdentifier);
    };
  }

  async deleteUser(partnerId: string, userIdentifier: string): Promise<void> {
    this.removeUser(partnerId, userIdentifier);
  }

  private removeUser(partnerId: string, userIdentifier: string): void {
    const key = userKey(partnerId, userIdentifier);
    if (this.users.has(key)) Object.values(this.ordersOf(partnerId)).forEach((order) => order.remove(key));
    for (const domainId of this.domainIdsByUser.get(key) ?? []) this.removeDomainRows(domainId);
    for (const transferId of this.transferIdsByUser.get(key) ?? []) {
      const transfer = this.transfers.get(transferId)!;
      if (this.activeTransferIdByName.get(transfer.domainName) === transferId) this.activeTransferIdByName.delete(transfer.domainName);
      this.transfers.delete(transferId);
    }
    for (const hash of [...(this.embedSessionHashesByUser.get(key) ?? [])]) {
      // Until its login session would have ended, the cookie gets the session-ended page (410).
      const expiresAt = this.sessions.get(this.embedSessions.get(hash)!.loginTokenHash)?.expiresAt ?? new Date(0);
      this.endedEmbedSessions.set(hash, { idHash: hash, partnerId, expiresAt });
      addToIndex(this.endedEmbedSessionHashesByPartner, partnerId, hash);
      this.removeEmbedSession(hash);
    }
    for (const hash of [...(this.sessionHashesByUser.get(key) ?? [])]) this.removeSession(hash);
    this.domainIdsByUser.delete(key);
    this.transferIdsByUser.delete(key);
    this.usersByPartner.get(partnerId)?.delete(key);
    this.users.delete(key);
  }

  async deletePartnerData(partnerId: string): Promise<void> {
    for (const key of [...(this.usersByPartner.get(partnerId) ?? [])]) this.removeUser(partnerId, this.users.get(key)!.userIdentifier);
    this.usersByPartner.delete(partnerId);
    this.userOrders.delete(partnerId);
  }

  async partnersWithData(): Promise<string[]> {
    return [...this.usersByPartner].filter(([, users]) => users.size > 0).map(([partnerId]) => partnerId);
  }

  async partnersWithSessions(): Promise<string[]> {
    return [...new Set([...this.sessionHashesByPartner.keys(), ...this.endedEmbedSessionHashesByPartner.keys()])];
  }

  async activeDomainsEndingBy(partnerId: string, until: Date): Promise<DomainRow[]> {
    return this.idsOfPartnerUsers(partnerId, this.domainIdsByUser)
      .map((id) => this.domains.get(id)!)
      .filter((domain) => domain.status === "active" && domain.expiresAt <= until)
      .map((domain) => this.domainCopy(domain.id)!);
  }

  async activeTransfersOfPartner(partnerId: string): Promise<TransferRow[]> {
    return this.idsOfPartnerUsers(partnerId, this.transferIdsByUser)
      .map((id) => this.transfers.get(id)!)
      .filter((transfer) => transfer.status === "pending" || transfer.status === "in_progress")
      .map((transfer) => this.transferCopy(transfer.id)!);
  }

  private idsOfPartnerUsers(partnerId: string, index: Map<string, Set<string>>): string[] {
    return [...(this.usersByPartner.get(partnerId) ?? [])].flatMap((key) => [...(index.get(key) ?? [])]);
  }

  async findDomain(id: string): Promise<DomainRow | undefined> {
    return this.domainCopy(id);
  }

  async domainDetailParts(domainId: string, recordLimit: number): Promise<DomainDetailParts | undefined> {
    const domain = this.domainCopy(domainId);
    return domain && readDetailParts(this, domain, recordLimit);
  }

  private domainCopy(id: string): DomainRow | undefined {
    const row = this.domains.get(id);
    return row && { ...row, nameservers: [...row.nameservers] };
  }

  async findDomainByName(name: string): Promise<DomainRow | undefined> {
    const id = this.domainIdByName.get(name);
    return id === undefined ? undefined : this.domainCopy(id);
  }

  async domainsOfUser(partnerId: string, userIdentifier: string): Promise<DomainRow[]> {
    return [...(this.domainIdsByUser.get(userKey(partnerId, userIdentifier)) ?? [])]
      .map((id) => this.domainCopy(id)!)
      .sort((a, b) => b.purchasedAt.getTime() - a.purchasedAt.getTime() || byCodeUnits(a.name, b.name));
  }

  async domainPage(partnerId: string, userIdentifier: string, { status, after, limit }: DomainPageQuery) {
    // A user's domains are few: sorted per page, as domainsOfUser does.
    const selected = (await this.domainsOfUser(partnerId, userIdentifier)).filter((domain) => status === null || domain.status === status);
    const start = after === null ? 0 : selected.findIndex((domain) => isAfter(domain, after));
    return { domains: start < 0 ? [] : selected.slice(start, start + limit), total: selected.length };
  }

  async countDomains(partnerId: string, userIdentifier: string): Promise<number> {
    return this.domainIdsByUser.get(userKey(partnerId, userIdentifier))?.size ?? 0;
  }

  async saveDomain(domain: DomainRow): Promise<void> {
    const owner = userKey(domain.partnerId, domain.userIdentifier);
    const isNew = !this.domainIdsByUser.get(owner)?.has(domain.id);
    this.domains.set(domain.id, { ...domain, nameservers: [...domain.nameservers] });
    this.domainIdByName.set(domain.name, domain.id);
    // A new domain changes its owner's domain_count, and so its place in that order.
    if (isNew) this.reorder(domain.partnerId, owner, ["domain_count"], () => addToIndex(this.domainIdsByUser, owner, domain.id));
  }

  async deleteDomain(id: string): Promise<void> {
    const domain = this.domains.get(id);
    if (!domain) return;
    const owner = userKey(domain.partnerId, domain.userIdentifier);
    // One domain fewer moves its owner in the domain_count order.
    this.reorder(domain.partnerId, owner, ["domain_count"], () => removeFromIndex(this.domainIdsByUser, owner, id));
    this.removeDomainRows(id);
  }

  /** A domain with its records and everything kept per domain; its owner's index is the caller's. */
  private removeDomainRows(domainId: string): void {
    for (const key of this.recordListByDomain.get(domainId)?.page(0, this.recordCount(domainId)) ?? []) this.removeRecord(idOfListKey(key));
    this.recordListByDomain.delete(domainId);
    this.delegations.forgetDomain(domainId);
    this.transferOut.forgetDomain(domainId);
    this.connections.forgetDomain(domainId);
    this.domainIdByName.delete(this.domains.get(domainId)!.name);
    this.domains.delete(domainId);
  }

  async findRecord(id: string): Promise<DnsRecordRow | undefined> {
    const row = this.records.get(id);
    return row && { ...row };
  }

  async recordsOfDomain(domainId: string): Promise<DnsRecordRow[]> {
    return this.recordPage(domainId, null, this.recordCount(domainId));
  }

  async recordPage(domainId: string, after: RecordListPosition | null, limit: number, filter: RecordFilter = {}): Promise<DnsRecordRow[]> {
    if (filter.name !== undefined || filter.type !== undefined) return this.filteredRecords(domainId, filter, after).slice(0, limit);
    const list = this.recordListByDomain.get(domainId);
    if (!list) return [];
    const keys = after === null ? list.page(0, limit) : list.after(listKey(after), limit);
    return keys.map((key) => ({ ...this.records.get(idOfListKey(key))! }));
  }

  /**
   * The records a filter selects, in list order, after a position: at one name, read from the name
   * index (one name holds few records); of one type alone, from the zone's list (bounded by the
   * records a domain may hold).
   */
  private filteredRecords(domainId: string, { name, type }: RecordFilter, after: RecordListPosition | null): DnsRecordRow[] {
    const from = after === null ? null : listKey(after);
    const candidates =
      name !== undefined
        ? (() => {
            const ids = this.recordIdsByName.get(recordNameKey(domainId, name));
            return ids === undefined ? [] : typeof ids === "string" ? [ids] : [...ids];
          })()
        : (this.recordListByDomain.get(domainId)?.page(0, Number.MAX_SAFE_INTEGER) ?? []).map(idOfListKey);
    return candidates
      .map((id) => this.records.get(id)!)
      .filter((row) => type === undefined || row.type === type)
      .map((row) => ({ row, key: listKey(row) }))
      .filter(({ key }) => from === null || key > from)
      .sort((a, b) => byCodeUnits(a.key, b.key))
      .map(({ row }) => ({ ...row }));
  }

  async recordsAtName(domainId: string, name: string): Promise<DnsRecordRow[]> {
    const ids = this.recordIdsByName.get(recordNameKey(domainId, name));
    if (ids === undefined) return [];
    return (typeof ids === "string" ? [ids] : [...ids]).map((id) => ({ ...this.records.get(id)! }));
  }

  async countRecords(domainId: string, filter: RecordFilter = {}): Promise<number> {
    if (filter.name !== undefined || filter.type !== undefined) return this.filteredRecords(domainId, filter, null).length;
    return this.recordCount(domainId);
  }

  private recordCount(domainId: string): number {
    return this.recordListByDomain.get(domainId)?.size ?? 0;
  }

  async addRecords(domainId: string, records: readonly DnsRecordRow[], maxRecords: number): Promise<boolean> {
    // Synchronous from the count to the last write: no other request runs in between.
    if (this.recordCount(domainId) + records.length > maxRecords) return false;
    for (const record of records) this.putRecord(record);
    return true;
  }

  async saveRecord(record: DnsRecordRow): Promise<void> {
    this.putRecord(record);
  }

  private putRecord(record: DnsRecordRow): void {
    const previous = this.records.get(record.id);
    if (previous) {
      this.unindexName(previous);
      this.recordListByDomain.get(previous.domainId)?.remove(listKey(previous));
    }
    this.records.set(record.id, { ...record });
    this.listOf(record.domainId).insert(listKey(record));
    this.indexName(record);
  }

  async deleteRecord(id: string): Promise<void> {
    this.removeRecord(id);
  }

  private removeRecord(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    this.recordListByDomain.get(record.domainId)?.remove(listKey(record));
    this.unindexName(record);
    this.records.delete(id);
  }

  private listOf(domainId: string): SortedKeys<string> {
    let list = this.recordListByDomain.get(domainId);
    if (!list) this.recordListByDomain.set(domainId, (list = new JournaledSortedKeys(byCodeUnits)));
    return list;
  }

  private indexName(record: DnsRecordRow): void {
    const key = recordNameKey(record.domainId, record.name);
    const ids = this.recordIdsByName.get(key);
    if (ids === undefined || ids === record.id) this.recordIdsByName.set(key, record.id);
    else if (typeof ids === "string") this.recordIdsByName.set(key, new UnorderedJournaledSet([ids, record.id]));
    else ids.add(record.id);
  }

  private unindexName(record: DnsRecordRow): void {
    const key = recordNameKey(record.domainId, record.name);
    const ids = this.recordIdsByName.get(key);
    if (ids === record.id) this.recordIdsByName.delete(key);
    else if (typeof ids === "object") {
      ids.delete(record.id);
      if (ids.size === 1) this.recordIdsByName.set(key, ids.values().next().value!);
    }
  }

  async findTransfer(id: string): Promise<TransferRow | undefined> {
    return this.transferCopy(id);
  }

  private transferCopy(id: string): TransferRow | undefined {
    const row = this.transfers.get(id);
    return row && { ...row, history: row.history.map((step) => ({ ...step })) };
  }

  async activeTransferOf(domainName: string): Promise<TransferRow | undefined> {
    const id = this.activeTransferIdByName.get(domainName);
    return id === undefined ? undefined : this.transferCopy(id);
  }

  async saveTransfer(transfer: TransferRow): Promise<void> {
    this.transfers.set(transfer.id, { ...transfer, history: transfer.history.map((step) => ({ ...step })) });
    addToIndex(this.transferIdsByUser, userKey(transfer.partnerId, transfer.userIdentifier), transfer.id);
    const active = transfer.status === "pending" || transfer.status === "in_progress";
    if (active) this.activeTransferIdByName.set(transfer.domainName, transfer.id);
    else if (this.activeTransferIdByName.get(transfer.domainName) === transfer.id) this.activeTransferIdByName.delete(transfer.domainName);
  }

  async saveSession(session: SessionRow): Promise<void> {
    this.sessions.set(session.tokenHash, { ...session });
    addToIndex(this.sessionHashesByUser, userKey(session.partnerId, session.userIdentifier), session.tokenHash, true);
    addToIndex(this.sessionHashesByPartner, session.partnerId, session.tokenHash, true);
  }

  async findSession(tokenHash: string): Promise<SessionRow | undefined> {
    const row = this.sessions.get(tokenHash);
    return row && { ...row };
  }

  async sessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]> {
    return [...(this.sessionHashesByUser.get(userKey(partnerId, userIdentifier)) ?? [])];
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.removeSession(tokenHash);
  }

  private removeSession(tokenHash: string): void {
    const session = this.sessions.get(tokenHash);
    if (!session) return;
    for (const idHash of [...(this.embedSessionHashesByLogin.get(tokenHash) ?? [])]) this.removeEmbedSession(idHash);
    removeFromIndex(this.sessionHashesByUser, userKey(session.partnerId, session.userIdentifier), tokenHash);
    removeFromIndex(this.sessionHashesByPartner, session.partnerId, tokenHash);
    this.sessions.delete(tokenHash);
  }

  async deleteEndedSessions(partnerId: string, now: Date): Promise<number> {
    let deleted = 0;
    // Oldest first, so the first session still open ends the walk (see sessionHashesByPartner).
    for (const tokenHash of this.sessionHashesByPartner.get(partnerId) ?? []) {
      if (this.sessions.get(tokenHash)!.expiresAt > now) break;
      this.removeSession(tokenHash);
      deleted++;
    }
    // Few: only the browser sessions of deleted users, kept until their login session would have ended.
    for (const idHash of [...(this.endedEmbedSessionHashesByPartner.get(partnerId) ?? [])]) {
      if (this.endedEmbedSessions.get(idHash)!.expiresAt > now) continue;
      this.endedEmbedSessions.delete(idHash);
      removeFromIndex(this.endedEmbedSessionHashesByPartner, partnerId, idHash);
    }
    return deleted;
  }

  async saveEmbedSession(session: EmbedSessionRow): Promise<void> {
    this.embedSessions.set(session.idHash, { ...session });
    addToIndex(this.embedSessionHashesByUser, userKey(session.partnerId, session.userIdentifier), session.idHash);
    addToIndex(this.embedSessionHashesByLogin, session.loginTokenHash, session.idHash);
  }

  async findEmbedSession(idHash: string): Promise<EmbedSessionRow | undefined> {
    const row = this.embedSessions.get(idHash);
    return row && { ...row };
  }

  async findEndedEmbedSession(idHash: string): Promise<EndedEmbedSessionRow | undefined> {
    const row = this.endedEmbedSessions.get(idHash);
    return row && { ...row };
  }

  async embedSessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]> {
    return [...(this.embedSessionHashesByUser.get(userKey(partnerId, userIdentifier)) ?? [])];
  }

  async deleteEmbedSession(idHash: string): Promise<void> {
    this.removeEmbedSession(idHash);
  }

  private removeEmbedSession(idHash: string): void {
    const session = this.embedSessions.get(idHash);
    if (!session) return;
    removeFromIndex(this.embedSessionHashesByUser, userKey(session.partnerId, session.userIdentifier), idHash);
    removeFromIndex(this.embedSessionHashesByLogin, session.loginTokenHash, idHash);
    this.embedSessions.delete(idHash);
  }
}
