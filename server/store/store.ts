/**
 * The service's data as one store: every aggregate's port (each in its own folder under domain/),
 * which the memory store and the PostgreSQL store implement as one object, so that a unit of work
 * reads and writes them all in one transaction.
 */
import type { RecordStore } from "../domain/dns/record-store.js";
import type { DomainStore } from "../domain/domains/domain-store.js";
import type { SessionStore } from "../domain/sessions/session-store.js";
import type { TransferStore } from "../domain/transfers/transfer-store.js";
import type { UserStore } from "../domain/users/user-store.js";

export interface Store extends UserStore, DomainStore, RecordStore, TransferStore, SessionStore {}
