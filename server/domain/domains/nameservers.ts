/**
 * Delegating a domain to custom nameservers, or back to the service's own: a change the registry
 * carries out after a delay, so it is kept pending and applied when it falls due (by the sweep, or
 * a sandbox clock advance: application/due-changes.ts).
 */
import { apiErrors } from "../../platform/errors.js";
import type { NameserverChangeRow } from "./delegation-store.js";
import { isServiceNameservers } from "./delegation.js";
import type { DomainServices } from "./domain-services.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";
import { DEFAULT_NAMESERVERS } from "./registration.js";

/**
 * How long the registry takes to carry out a change. The sandbox's simulated delay; the reference
 * server has no registry to report it in production, so it keeps the same timeline there.
 */
export const NAMESERVER_CHANGE_DELAY_MS = 10 * 60_000;
export const MIN_NAMESERVERS = 2;
export const MAX_NAMESERVERS = 13;

/** RFC 1123 host names: labels of letters, digits and inner hyphens, at least two of them. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function isHostName(name: string): boolean {
  if (name.length > 253) return false;
  const labels = name.split(".");
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/** Whether a host lies under the domain itself, so resolvers need its glue to reach it. */
export const isInBailiwick = (host: string, domainName: string): boolean => host === domainName || host.endsWith(`.${domainName}`);

/** Only an active domain's delegation changes, as only an active domain renews. */
export function assertDelegationChangeable(domain: DomainRow): void {
  if (domain.status !== "active") {
    throw apiErrors.conflict(`The delegation of a ${domain.status} domain cannot be changed`, { field: "status", code: "invalid_status" });
  }
}

/** The nameservers asked for, in lower case, checked; 422 naming the first one that breaks a rule. */
export function readNameservers(requested: readonly string[]): string[] {
  if (requested.length < MIN_NAMESERVERS || requested.length > MAX_NAMESERVERS) {
    throw apiErrors.invalidValue("nameservers", "out_of_range", `Give ${MIN_NAMESERVERS} to ${MAX_NAMESERVERS} nameservers`);
  }
  const seen = new Set<string>();
  const hosts = requested.map((text, index) => {
    const host = text.toLowerCase();
    if (!isHostName(host)) throw apiErrors.invalidValue(`nameservers.${index}`, "invalid_format", `${text} is not a host name`);
    if (seen.has(host)) throw apiErrors.invalidValue(`nameservers.${index}`, "duplicate_nameserver", `${text} is given twice`);
    seen.add(host);
    return host;
  });
  const own = new Set(DEFAULT_NAMESERVERS);
  const ownIndex = hosts.findIndex((host) => own.has(host));
  if (ownIndex !== -1) {
    // Half a delegation to a zone we serve and half to one we do not gives answers that depend on the resolver.
    throw apiErrors.invalidValue(
      `nameservers.${ownIndex}`,
      "invalid_value",
      `${hosts[ownIndex]} is one of the service's own nameservers, which are not mixed with custom ones; return to them with DELETE`,
    );
  }
  return hosts;
}

export interface NameserverRequest {
  domain: DomainRow;
  /** The change now pending, or null when the nameservers asked for are already in effect. */
  pending: NameserverChangeRow | null;
}

const sameHosts = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((host) => b.includes(host));

/**
 * Asks the registry for `nameservers` (already read by readNameservers, or the service's own),
 * replacing a pending change. Asking for what is in effect cancels the pending change instead.
 */
export async function requestNameservers(
  services: DomainServices,
  domain: DomainRow,
  nameservers: readonly string[],
): Promise<NameserverRequest> {
  assertDelegationChangeable(domain);
  if (!isServiceNameservers(nameservers)) await assertGlueFor(services, domain, nameservers);
  const { delegations } = services.store;
  const now = services.clock.now();
  if (sameHosts(nameservers, domain.nameservers)) {
    if (!(await delegations.deletePendingNameserverChange(domain.id))) return { domain, pending: null };
    const updated: DomainRow = { ...domain, updatedAt: now };
    await services.store.saveDomain(updated);
    services.outbox.emit(domain.partnerId, "domain.updated", { data: await domainDetail(services, updated) });
    return { domain: updated, pending: null };
  }
  const pending: NameserverChangeRow = {
    domainId: domain.id,
    partnerId: domain.partnerId,
    nameservers: [...nameservers],
    requestedAt: now,
    completesAt: new Date(now.getTime() + NAMESERVER_CHANGE_DELAY_MS),
  };
  await delegations.savePendingNameserverChange(pending);
  const updated: DomainRow = { ...domain, updatedAt: now };
  await services.store.saveDomain(updated);
  services.outbox.emit(domain.partnerId, "domain.updated", { data: await domainDetail(services, updated) });
  return { domain: updated, pending };
}

/** 422 `glue_required` for an in-bailiwick host without glue: resolvers could never reach it. */
async function assertGlueFor(services: DomainServices, domain: DomainRow, nameservers: readonly string[]): Promise<void> {
  const inBailiwick = nameservers.map((host, index) => ({ host, index })).filter(({ host }) => isInBailiwick(host, domain.name));
  if (inBailiwick.length === 0) return;
  const glued = new Set((await services.store.delegations.glueRecordsOf(domain.id)).map((glue) => glue.host));
  const missing = inBailiwick.find(({ host }) => !glued.has(host));
  if (missing) {
    throw apiErrors.unprocessable(
      `${missing.host} lies under ${domain.name}: set its glue addresses (PUT /api/v1/domains/${domain.id}/nameservers/glue/${missing.host}) before delegating to it`,
      { field: `nameservers.${missing.index}`, code: "glue_required" },
    );
  }
}

/**
 * Carries out a pending change that fell due (services at its time): the domain gets its
 * nameservers and `domain.nameservers_changed` is sent. Null when the change is no longer the
 * domain's pending one (replaced, cancelled, or carried out by another instance).
 */
export async function completeNameserverChange(services: DomainServices, change: NameserverChangeRow): Promise<DomainRow | null> {
  const { delegations } = services.store;
  const current = await delegations.pendingNameserverChange(change.domainId);
  if (current?.completesAt.getTime() !== change.completesAt.getTime()) return null;
  const domain = await services.store.findDomain(change.domainId);
  if (!domain) return null;
  const changed: DomainRow = { ...domain, nameservers: [...current.nameservers], updatedAt: current.completesAt };
  await services.store.saveDomain(changed);
  await delegations.deletePendingNameserverChange(domain.id);
  await delegations.saveAppliedNameserverChange(current);
  services.outbox.emit(domain.partnerId, "domain.nameservers_changed", { data: await domainDetail(services, changed) });
  return changed;
}
