/** In-memory Store: Maps with the indexes the operations need, so lookups never scan. */
import type { DnsRecordRow, DomainRow, SessionRow, Store, TransferRow, UserPageQuery, UserRow } from "./types.js";

const userKey = (partnerId: string, userIdentifier: string) => `${partnerId}\u0000${userIdentifier}`;

/** Adds to a Set held in a Map, creating it on first use. */
function addToIndex<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

export class MemoryStore implements Store {
  private readonly users = new Map<string, UserRow>();
  private readonly usersByPartner = new Map<string, Set<string>>();
  private readonly domains = new Map<string, DomainRow>();
  private readonly domainIdByName = new Map<string, string>();
  private readonly domainIdsByUser = new Map<string, Set<string>>();
  private readonly records = new Map<string, DnsRecordRow>();
  private readonly recordIdsByDomain = new Map<string, Set<string>>();
  private readonly transfers = new Map<string, TransferRow>();
  private readonly activeTransferIdByName = new Map<string, string>();
  private readonly transferIdsByUser = new Map<string, Set<string>>();
  private readonly sessions = new Map<string, SessionRow>();
  private readonly sessionHashesByUser = new Map<string, Set<string>>();

  findUser(partnerId: string, userIdentifier: string): UserRow | undefined {
    return this.users.get(userKey(partnerId, userIdentifier));
  }

  saveUser(user: UserRow): void {
    const key = userKey(user.partnerId, user.userIdentifier);
    this.users.set(key, { ...user });
    addToIndex(this.usersByPartner, user.partnerId, key);
  }

  listUsers(partnerId: string, { limit, offset, sort, order }: UserPageQuery): { users: UserRow[]; total: number } {
    const rows = [...(this.usersByPartner.get(partnerId) ?? [])].map((key) => this.users.get(key)!);
    const sortValue = (user: UserRow) =>
      sort === "domain_count" ? this.countDomains(user.partnerId, user.userIdentifier)
      : sort === "last_login" ? user.lastLogin.getTime()
      : user.createdAt.getTime();
    const direction = order === "asc" ? 1 : -1;
    rows.sort((a, b) => direction * (sortValue(a) - sortValue(b)) || (a.userIdentifier < b.userIdentifier ? -1 : 1));
    return { users: rows.slice(offset, offset + limit).map((row) => ({ ...row })), total: rows.length };
  }

  deleteUser(partnerId: string, userIdentifier: string): void {
    const key = userKey(partnerId, userIdentifier);
    for (const domainId of this.domainIdsByUser.get(key) ?? []) {
      for (const recordId of this.recordIdsByDomain.get(domainId) ?? []) this.records.delete(recordId);
      this.recordIdsByDomain.delete(domainId);
      this.domainIdByName.delete(this.domains.get(domainId)!.name);
      this.domains.delete(domainId);
    }
    for (const transferId of this.transferIdsByUser.get(key) ?? []) {
      const transfer = this.transfers.get(transferId)!;
      if (this.activeTransferIdByName.get(transfer.domainName) === transferId) this.activeTransferIdByName.delete(transfer.domainName);
      this.transfers.delete(transferId);
    }
    for (const hash of this.sessionHashesByUser.get(key) ?? []) this.sessions.delete(hash);
    this.domainIdsByUser.delete(key);
    this.transferIdsByUser.delete(key);
    this.sessionHashesByUser.delete(key);
    this.usersByPartner.get(partnerId)?.delete(key);
    this.users.delete(key);
  }

  deletePartnerData(partnerId: string): void {
    for (const key of [...(this.usersByPartner.get(partnerId) ?? [])]) this.deleteUser(partnerId, this.users.get(key)!.userIdentifier);
    this.usersByPartner.delete(partnerId);
  }

  partnersWithData(): string[] {
    return [...this.usersByPartner].filter(([, users]) => users.size > 0).map(([partnerId]) => partnerId);
  }

  domainsOfPartner(partnerId: string): DomainRow[] {
    return this.idsOfPartnerUsers(partnerId, this.domainIdsByUser).map((id) => this.findDomain(id)!);
  }

  activeTransfersOfPartner(partnerId: string): TransferRow[] {
    return this.idsOfPartnerUsers(partnerId, this.transferIdsByUser)
      .map((id) => this.transfers.get(id)!)
      .filter((transfer) => transfer.status === "pending" || transfer.status === "in_progress")
      .map((transfer) => this.findTransfer(transfer.id)!);
  }

  private idsOfPartnerUsers(partnerId: string, index: Map<string, Set<string>>): string[] {
    return [...(this.usersByPartner.get(partnerId) ?? [])].flatMap((key) => [...(index.get(key) ?? [])]);
  }

  findDomain(id: string): DomainRow | undefined {
    const row = this.domains.get(id);
    return row && { ...row, nameservers: [...row.nameservers] };
  }

  findDomainByName(name: string): DomainRow | undefined {
    const id = this.domainIdByName.get(name);
    return id === undefined ? undefined : this.findDomain(id);
  }

  domainsOfUser(partnerId: string, userIdentifier: string): DomainRow[] {
    return [...(this.domainIdsByUser.get(userKey(partnerId, userIdentifier)) ?? [])]
      .map((id) => this.findDomain(id)!)
      .sort((a, b) => b.purchasedAt.getTime() - a.purchasedAt.getTime() || (a.name < b.name ? -1 : 1));
  }

  countDomains(partnerId: string, userIdentifier: string): number {
    return this.domainIdsByUser.get(userKey(partnerId, userIdentifier))?.size ?? 0;
  }

  saveDomain(domain: DomainRow): void {
    this.domains.set(domain.id, { ...domain, nameservers: [...domain.nameservers] });
    this.domainIdByName.set(domain.name, domain.id);
    addToIndex(this.domainIdsByUser, userKey(domain.partnerId, domain.userIdentifier), domain.id);
  }

  findRecord(id: string): DnsRecordRow | undefined {
    const row = this.records.get(id);
    return row && { ...row };
  }

  recordsOfDomain(domainId: string): DnsRecordRow[] {
    return [...(this.recordIdsByDomain.get(domainId) ?? [])].map((id) => ({ ...this.records.get(id)! }));
  }

  countRecords(domainId: string): number {
    return this.recordIdsByDomain.get(domainId)?.size ?? 0;
  }

  saveRecord(record: DnsRecordRow): void {
    this.records.set(record.id, { ...record });
    addToIndex(this.recordIdsByDomain, record.domainId, record.id);
  }

  deleteRecord(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    this.recordIdsByDomain.get(record.domainId)?.delete(id);
    this.records.delete(id);
  }

  findTransfer(id: string): TransferRow | undefined {
    const row = this.transfers.get(id);
    return row && { ...row, history: row.history.map((step) => ({ ...step })) };
  }

  activeTransferOf(domainName: string): TransferRow | undefined {
    const id = this.activeTransferIdByName.get(domainName);
    return id === undefined ? undefined : this.findTransfer(id);
  }

  saveTransfer(transfer: TransferRow): void {
    this.transfers.set(transfer.id, { ...transfer, history: transfer.history.map((step) => ({ ...step })) });
    addToIndex(this.transferIdsByUser, userKey(transfer.partnerId, transfer.userIdentifier), transfer.id);
    const active = transfer.status === "pending" || transfer.status === "in_progress";
    if (active) this.activeTransferIdByName.set(transfer.domainName, transfer.id);
    else if (this.activeTransferIdByName.get(transfer.domainName) === transfer.id) this.activeTransferIdByName.delete(transfer.domainName);
  }

  saveSession(session: SessionRow): void {
    this.sessions.set(session.tokenHash, { ...session });
    addToIndex(this.sessionHashesByUser, userKey(session.partnerId, session.userIdentifier), session.tokenHash);
  }

  findSession(tokenHash: string): SessionRow | undefined {
    const row = this.sessions.get(tokenHash);
    return row && { ...row };
  }
}
