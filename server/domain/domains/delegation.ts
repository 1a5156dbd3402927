/**
 * Where a domain is delegated: the service's own nameservers, or custom ones the partner set, with
 * the change the registry has not carried out yet. What the connection check (whether a domain
 * points at the partner) and the domain's reads build on.
 */
import type { DelegationStore } from "./delegation-store.js";
import type { DomainRow } from "./domain-store.js";
import { DEFAULT_NAMESERVERS } from "./registration.js";

export interface Delegation {
  /** True when the nameservers in effect are not the service's own: the service's records are then not served. */
  custom: boolean;
  /** The nameservers in effect at the registry. */
  nameservers: string[];
  /** When the nameservers in effect took effect; null for the service's own since registration. */
  appliedAt: Date | null;
  /** The change waiting for the registry, if any. */
  pending: { nameservers: string[]; completesAt: Date } | null;
}

export interface DelegationServices {
  store: { delegations: Pick<DelegationStore, "pendingNameserverChange" | "appliedNameserverChange"> };
}

/** Whether a set of nameservers is the service's own, in any order. */
export function isServiceNameservers(nameservers: readonly string[]): boolean {
  const own = new Set(DEFAULT_NAMESERVERS);
  return nameservers.length === own.size && nameservers.every((host) => own.has(host.toLowerCase()));
}

export async function delegationOf(services: DelegationServices, domain: DomainRow): Promise<Delegation> {
  const [pending, applied] = await Promise.all([
    services.store.delegations.pendingNameserverChange(domain.id),
    services.store.delegations.appliedNameserverChange(domain.id),
  ]);
  return {
    custom: !isServiceNameservers(domain.nameservers),
    nameservers: [...domain.nameservers],
    appliedAt: applied?.completesAt ?? null,
    pending: pending ? { nameservers: [...pending.nameservers], completesAt: pending.completesAt } : null,
  };
}
