/** The wire shapes of a domain, shared by the handlers and by events. */
import type { components } from "../../../generated/types/full.js";
import { timestamp } from "../../platform/clock.js";
import type { DomainServices } from "./domain-services.js";
import { toRecordD } from "../dns/record-shapes.js";
import { formatCents } from "../../platform/money.js";
import type { DomainRow } from "./domain-store.js";
import { REGISTRAR_NAME } from "./registration.js";
import { EMBEDDED_RECORDS } from "../dns/record-pages.js";
import { type DomainDetailParts, type DomainDetailStore, readDetailParts } from "./domain-detail-store.js";
import { assertDomainOfPartner } from "./domain-access.js";
import { delegationFieldsOf } from "./delegation-views.js";
import { controlsWithDefaults } from "./transfer-controls.js";

type Schemas = components["schemas"];

/** The fields the list item and the detail share (the description: detail = list item minus dns_records_count, plus more). */
export function domainSummary(domain: DomainRow) {
  return {
    id: domain.id,
    name: domain.name,
    status: domain.status,
    purchased_at: timestamp(domain.purchasedAt),
    expires_at: timestamp(domain.expiresAt),
    auto_renew: domain.autoRenew,
    registrar: REGISTRAR_NAME,
  };
}

export async function domainDetail(services: DomainServices, domain: DomainRow): Promise<Schemas["DomainDetail"]> {
  return domainDetailOf(await readDetailParts(services.store, domain, EMBEDDED_RECORDS));
}

/**
 * The detail of a partner's domain from one read of the store (domain-detail-store.ts), checked as
 * domainOfPartner checks, with the domain it shows (its entity tag's).
 */
export async function partnerDomainDetail(store: DomainDetailStore, partnerId: string, domainId: string) {
  const parts = await store.domainDetailParts(domainId, EMBEDDED_RECORDS);
  const domain = assertDomainOfPartner(parts?.domain, partnerId, domainId);
  return { domain, detail: domainDetailOf(parts!) };
}

/** The detail from its parts read at once (domain-detail-store.ts). */
export function domainDetailOf({ domain, records, pendingNameserverChange, transferControls }: DomainDetailParts): Schemas["DomainDetail"] {
  return {
    ...domainSummary(domain),
    user_identifier: domain.userIdentifier,
    nameservers: [...domain.nameservers],
    whois_privacy: domain.whoisPrivacy,
    dns_records: records.map((record) => {
      const { updated_at: _updatedAt, ...summary } = toRecordD(record);
      return summary;
    }),
    pricing: {
      registration_price: formatCents(domain.registrationPrice),
      renewal_price: formatCents(domain.renewalPrice),
      currency: domain.currency,
    },
    ...delegationFieldsOf(domain, pendingNameserverChange),
    transfer_lock: controlsWithDefaults(domain, transferControls).transferLock,
  };
}
