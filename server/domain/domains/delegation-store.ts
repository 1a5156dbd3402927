/**
 * A domain's delegation at the registry as stored: nameserver changes (the one pending and the one
 * last applied), glue addresses of in-bailiwick nameserver hosts, and DNSSEC DS records. Rows of
 * tables of their own, so the domains' table stays as it was; they go with their domain.
 */

/** A change of a domain's nameservers, as requested and as carried out by the registry. */
export interface NameserverChangeRow {
  domainId: string;
  partnerId: string;
  /** The nameservers after the change: the service's own when the change returns to them. */
  nameservers: string[];
  requestedAt: Date;
  /** When the registry carries it out (the simulated delay in the sandbox). */
  completesAt: Date;
}

/** The addresses the registry publishes for a nameserver host under the domain itself. */
export interface GlueRecordRow {
  domainId: string;
  partnerId: string;
  /** Lower case, without the final dot. */
  host: string;
  ipv4: string[];
  ipv6: string[];
  updatedAt: Date;
}

/** A DS record the registry publishes in the parent zone. */
export interface DsRecordRow {
  id: string;
  domainId: string;
  partnerId: string;
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Lower-case hex. */
  digest: string;
  createdAt: Date;
}

/** The port of the store that keeps delegations, reached as `store.delegations`. */
export interface DelegationStore {
  /** The domain's change waiting for the registry, if any. */
  pendingNameserverChange(domainId: string): Promise<NameserverChangeRow | undefined>;
  /** The domain's last change the registry carried out, if any since registration. */
  appliedNameserverChange(domainId: string): Promise<NameserverChangeRow | undefined>;
  /** The partner's pending changes: what the sweep and a clock advance carry out. */
  pendingNameserverChangesOfPartner(partnerId: string): Promise<NameserverChangeRow[]>;
  /** Makes `change` the domain's pending change, replacing the one there was. */
  savePendingNameserverChange(change: NameserverChangeRow): Promise<void>;
  /** Removes the domain's pending change; answers whether there was one. */
  deletePendingNameserverChange(domainId: string): Promise<boolean>;
  /** Makes `change` the domain's last applied change, replacing the one there was. */
  saveAppliedNameserverChange(change: NameserverChangeRow): Promise<void>;

  /** The domain's glue, by host name in code-point order. */
  glueRecordsOf(domainId: string): Promise<GlueRecordRow[]>;
  /** Sets a host's addresses, replacing what it had. */
  saveGlueRecord(glue: GlueRecordRow): Promise<void>;
  /** Removes a host's addresses; answers whether it had any. */
  deleteGlueRecord(domainId: string, host: string): Promise<boolean>;

  /** The domain's DS records, oldest first (then by id). */
  dsRecordsOf(domainId: string): Promise<DsRecordRow[]>;
  saveDsRecord(ds: DsRecordRow): Promise<void>;
  /** Removes one of the domain's DS records; answers whether it was there. */
  deleteDsRecord(domainId: string, id: string): Promise<boolean>;
}
