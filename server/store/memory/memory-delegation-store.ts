/** Delegations in memory: journaled Maps keyed by domain, so a unit of work that throws leaves them as they were. */
import type { DelegationStore, DsRecordRow, GlueRecordRow, NameserverChangeRow } from "../../domain/domains/delegation-store.js";
import { JournaledMap } from "./undo-journal.js";

const copyChange = (row: NameserverChangeRow): NameserverChangeRow => ({ ...row, nameservers: [...row.nameservers] });
const copyGlue = (row: GlueRecordRow): GlueRecordRow => ({ ...row, ipv4: [...row.ipv4], ipv6: [...row.ipv6] });
const asRow = () => true;
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class MemoryDelegationStore implements DelegationStore {
  private readonly pending = new JournaledMap<string, NameserverChangeRow>();
  private readonly applied = new JournaledMap<string, NameserverChangeRow>();
  /**
   * Per domain, its glue by host. The inner Maps are replaced whole, never changed in place, so
   * each is a row to the journal (no other writer adds to one): undoing its addition removes it.
   */
  private readonly glue = new JournaledMap<string, ReadonlyMap<string, GlueRecordRow>>(asRow);
  /** Per domain, its DS records by id, kept as the glue is. */
  private readonly ds = new JournaledMap<string, ReadonlyMap<string, DsRecordRow>>(asRow);

  async pendingNameserverChange(domainId: string) {
    const row = this.pending.get(domainId);
    return row && copyChange(row);
  }

  async appliedNameserverChange(domainId: string) {
    const row = this.applied.get(domainId);
    return row && copyChange(row);
  }

  async pendingNameserverChangesOfPartner(partnerId: string) {
    return [...this.pending.values()]
      .filter((row) => row.partnerId === partnerId)
      .sort((a, b) => a.completesAt.getTime() - b.completesAt.getTime() || byCodeUnits(a.domainId, b.domainId))
      .map(copyChange);
  }

  async savePendingNameserverChange(change: NameserverChangeRow) {
    this.pending.set(change.domainId, copyChange(change));
  }

  async deletePendingNameserverChange(domainId: string) {
    return this.pending.delete(domainId);
  }

  async saveAppliedNameserverChange(change: NameserverChangeRow) {
    this.applied.set(change.domainId, copyChange(change));
  }

  async glueRecordsOf(domainId: string) {
    return [...(this.glue.get(domainId)?.values() ?? [])].sort((a, b) => byCodeUnits(a.host, b.host)).map(copyGlue);
  }

  async saveGlueRecord(glue: GlueRecordRow) {
    const hosts = new Map(this.glue.get(glue.domainId));
    hosts.set(glue.host, copyGlue(glue));
    this.glue.set(glue.domainId, hosts);
  }

  async deleteGlueRecord(domainId: string, host: string) {
    const hosts = new Map(this.glue.get(domainId));
    if (!hosts.delete(host)) return false;
    if (hosts.size === 0) this.glue.delete(domainId);
    else this.glue.set(domainId, hosts);
    return true;
  }

  async dsRecordsOf(domainId: string) {
    return [...(this.ds.get(domainId)?.values() ?? [])]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byCodeUnits(a.id, b.id))
      .map((row) => ({ ...row }));
  }

  async saveDsRecord(row: DsRecordRow) {
    const records = new Map(this.ds.get(row.domainId));
    records.set(row.id, { ...row });
    this.ds.set(row.domainId, records);
  }

  async deleteDsRecord(domainId: string, id: string) {
    const records = new Map(this.ds.get(domainId));
    if (!records.delete(id)) return false;
    if (records.size === 0) this.ds.delete(domainId);
    else this.ds.set(domainId, records);
    return true;
  }

  /** Forgets everything of a domain that is deleted (with its user, or a sandbox reset). */
  forgetDomain(domainId: string): void {
    this.pending.delete(domainId);
    this.applied.delete(domainId);
    this.glue.delete(domainId);
    this.ds.delete(domainId);
  }
}
