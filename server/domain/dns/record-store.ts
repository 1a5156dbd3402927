/** DNS records as stored (one shape for both variants), and the port of the store that keeps them. */
import type { components } from "../../../generated/types/full.js";

type Schemas = components["schemas"];

/** One record store serves both variants: content is kept in Variant D's form. */
export interface DnsRecordRow {
  id: string;
  domainId: string;
  type: Schemas["DnsRecordType"];
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  /** The partner's or user's note; null when none (record-annotations.ts). */
  comment: string | null;
  /** Set by the partner: the user cannot edit or delete the record in the embedded interface. */
  locked: boolean;
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

/**
 * The domain a record belongs to, as the DNS rules see it: its id, its name (relative names are
 * read against it) and its partner. A registered domain is one; the DNS rules need no more of it.
 */
export interface RecordZone {
  id: string;
  name: string;
  partnerId: string;
}

/** Each domain's DNS records. */
export interface RecordStore {
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
}
