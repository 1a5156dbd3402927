/** A domain's settings a user changes (auto-renew, WHOIS privacy, the registrar lock): through the API or the embedded interface. */
import type { DomainServices } from "./domain-services.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";
import { saveTransferLock } from "./transfer-controls.js";

export interface DomainSettings {
  autoRenew?: boolean;
  whoisPrivacy?: boolean;
  /** Only an active domain's lock changes (409 otherwise). */
  transferLock?: boolean;
}

/** Applies the settings given (others keep their value) and emits `domain.updated`. */
export async function updateDomainSettings(services: DomainServices, domain: DomainRow, settings: DomainSettings): Promise<DomainRow> {
  const now = services.clock.now();
  if (settings.transferLock !== undefined) await saveTransferLock(services.store, domain, settings.transferLock, now);
  const updated: DomainRow = {
    ...domain,
    autoRenew: settings.autoRenew ?? domain.autoRenew,
    whoisPrivacy: settings.whoisPrivacy ?? domain.whoisPrivacy,
    updatedAt: now,
  };
  await services.store.saveDomain(updated);
  services.outbox.emit(domain.partnerId, "domain.updated", { data: await domainDetail(services, updated) });
  return updated;
}
