/**
 * Status changes of a domain that no partner request asks for: expiry (or auto-renewal) when
 * `expires_at` passes, and the sandbox's set-status helper. The Domains tag of the spec has the table.
 */
import { addYears } from "../../platform/clock.js";
import type { DomainServices } from "./domain-services.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";

type DomainStatus = DomainRow["status"];

/**
 * An active domain whose `expires_at` has passed: with auto_renew it is renewed for one year and
 * the user charged the renewal price; without, it expires.
 */
export async function expireOrAutoRenew(services: DomainServices, domain: DomainRow): Promise<DomainRow> {
  const now = services.clock.now();
  if (domain.autoRenew) {
    const renewed: DomainRow = { ...domain, expiresAt: addYears(domain.expiresAt, 1), updatedAt: now };
    await services.store.saveDomain(renewed);
    const user = (await services.store.findUser(domain.partnerId, domain.userIdentifier))!;
    await services.store.saveUser({ ...user, totalSpent: user.totalSpent + domain.renewalPrice });
    services.outbox.emit(domain.partnerId, "domain.renewed", { data: await domainDetail(services, renewed) });
    return renewed;
  }
  const expired: DomainRow = { ...domain, status: "expired", updatedAt: now };
  await services.store.saveDomain(expired);
  services.outbox.emit(domain.partnerId, "domain.expired", { data: await domainDetail(services, expired) });
  return expired;
}

/**
 * Puts a domain in a status (a sandbox helper). Dates follow so the domain stays consistent: an
 * expired domain has expired by now, an active one has not.
 */
export async function setDomainStatus(services: DomainServices, domain: DomainRow, status: DomainStatus): Promise<DomainRow> {
  if (domain.status === status) return domain;
  const now = services.clock.now();
  let expiresAt = domain.expiresAt;
  if (status === "expired" && expiresAt > now) expiresAt = now;
  if (status === "active" && expiresAt <= now) expiresAt = addYears(now, 1);
  const changed: DomainRow = { ...domain, status, expiresAt, updatedAt: now };
  await services.store.saveDomain(changed);
  services.outbox.emit(domain.partnerId, status === "expired" ? "domain.expired" : "domain.updated", {
    data: await domainDetail(services, changed),
  });
  return changed;
}
