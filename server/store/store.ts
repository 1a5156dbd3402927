/**
 * The service's data as one store: every aggregate's port (each in its own folder under domain/),
 * which the memory store and the PostgreSQL store implement as one object, so that a unit of work
 * reads and writes them all in one transaction.
 */
import type { RecordStore } from "../domain/dns/record-store.js";
import type { DelegationStore } from "../domain/domains/delegation-store.js";
import type { DomainStore } from "../domain/domains/domain-store.js";
import type { DomainDetailStore } from "../domain/domains/domain-detail-store.js";
import type { TransferOutStore } from "../domain/domains/transfer-out-store.js";
import type { ConnectionStore } from "../domain/connection/connection-store.js";
import type { SessionStore } from "../domain/sessions/session-store.js";
import type { TransferStore } from "../domain/transfers/transfer-store.js";
import type { UserStore } from "../domain/users/user-store.js";

export interface Store extends UserStore, DomainStore, DomainDetailStore, RecordStore, TransferStore, SessionStore {
  /** Nameserver changes, glue and DS records of domains (domain/domains/delegation-store.ts). */
  readonly delegations: DelegationStore;
  /** Registrar controls and transfers to other registrars (domain/domains/transfer-out-store.ts). */
  readonly transferOut: TransferOutStore;
  /** Connection requirements and the domains' last known answers (domain/connection/connection-store.ts). */
  readonly connections: ConnectionStore;
}
