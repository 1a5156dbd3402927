/**
 * What a domain's detail shows, read at once: the domain, the first page of its records, its
 * pending nameserver change and its registrar controls. The detail is the most read answer of the
 * service; a store that keeps them in one database reads them in one round trip.
 */
import type { DnsRecordRow, RecordStore } from "../dns/record-store.js";
import type { DelegationStore, NameserverChangeRow } from "./delegation-store.js";
import type { DomainRow } from "./domain-store.js";
import type { TransferControlsRow, WithTransferOut } from "./transfer-out-store.js";

export interface DomainDetailParts {
  domain: DomainRow;
  /** The first `recordLimit` records in list order. */
  records: DnsRecordRow[];
  pendingNameserverChange: NameserverChangeRow | undefined;
  /** Undefined while the domain has the defaults (transfer-controls.ts). */
  transferControls: TransferControlsRow | undefined;
}

export interface DomainDetailStore {
  domainDetailParts(domainId: string, recordLimit: number): Promise<DomainDetailParts | undefined>;
}

/** The parts of a domain already read, each from its own store: for a store with no single read of them. */
export async function readDetailParts(
  store: Pick<RecordStore, "recordPage"> & { readonly delegations: DelegationStore } & WithTransferOut,
  domain: DomainRow,
  recordLimit: number,
): Promise<DomainDetailParts> {
  const [records, pendingNameserverChange, transferControls] = await Promise.all([
    store.recordPage(domain.id, null, recordLimit),
    store.delegations.pendingNameserverChange(domain.id),
    store.transferOut.controlsOf(domain.id),
  ]);
  return { domain, records, pendingNameserverChange, transferControls };
}
