/**
 * The key a request was made with, as the domain layer sees it: its restrictions are checked where
 * every request already passes (a domain's tenancy check, the one record guard of DNS writes,
 * list filters), not per handler. It travels with the request's async context, so functions that
 * never took a request (domainOfPartner) need no new parameter; outside an API request (the
 * embedded interface, sweeps) there is none and nothing is restricted.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { apiErrors } from "../../platform/errors.js";
import type { Scope } from "../../../generated/operations.js";
import { domainAllowed, recordAllowed, type KeyRestrictions, type RestrictionName } from "./key-restrictions.js";

export interface KeyAccess {
  /** The stored key's id; null for a key of the configuration or the partners file. */
  keyId: string | null;
  keyName: string;
  /** Null: a full key. */
  scopes: Scope[] | null;
  restrictions: KeyRestrictions | null;
  /** The restriction that refused the request in the domain layer, for the request log; set by the guards below. */
  refusedBy?: RestrictionName;
}

const currentAccess = new AsyncLocalStorage<KeyAccess>();

/** Runs `task` as a request of the key; `null` (no key, or a full one) runs it unrestricted. */
export function withKeyAccess<T>(access: KeyAccess | null, task: () => T): T {
  return access?.restrictions ? currentAccess.run(access, task) : currentAccess.exit(task);
}

/** The restrictions of the key of the request being served; null when there are none. */
export const currentRestrictions = (): KeyRestrictions | null => currentAccess.getStore()?.restrictions ?? null;

function refuse(restriction: RestrictionName): never {
  const access = currentAccess.getStore();
  if (access) access.refusedBy = restriction;
  throw apiErrors.keyRestricted(restriction);
}

/** Refuses (403 key_restricted) a domain outside the key's `domains`. */
export function assertDomainAllowed(domainName: string): void {
  if (!domainAllowed(currentRestrictions(), domainName)) refuse("domains");
}

/** Whether a domain is one the key may see (lists leave the others out). */
export const domainVisible = (domainName: string): boolean => domainAllowed(currentRestrictions(), domainName);

/**
 * The one record guard of DNS writes: every record created, every record changed (as it was and
 * as it becomes) and every record deleted must lie within the key's record names and types, or the
 * whole request is refused (403 key_restricted) before anything is written.
 */
export function assertRecordsAllowed(records: Iterable<{ name: string; type: string }>): void {
  const restrictions = currentRestrictions();
  if (!restrictions?.recordNames && !restrictions?.recordTypes) return;
  for (const record of records) {
    const refusal = recordAllowed(restrictions, record.name, record.type);
    if (refusal) refuse(refusal);
  }
}

/** Whether the key may touch the record (a record-restricted key's lists show only those). */
export const recordVisible = (record: { name: string; type: string }): boolean =>
  recordAllowed(currentRestrictions(), record.name, record.type) === null;
