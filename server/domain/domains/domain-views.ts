/** The wire shapes of a domain, shared by the handlers and by events. */
import type { components } from "../../../generated/types/full.js";
import { timestamp } from "../../platform/clock.js";
import type { DomainServices } from "./domain-services.js";
import { embeddedRecords } from "../dns/record-pages.js";
import { toRecordD } from "../dns/record-shapes.js";
import { formatCents } from "../../platform/money.js";
import type { DomainRow } from "./domain-store.js";
import { REGISTRAR_NAME } from "./registration.js";
import { delegationFields } from "./delegation-views.js";
import { transferControlsOf } from "./transfer-controls.js";

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
  return {
    ...domainSummary(domain),
    user_identifier: domain.userIdentifier,
    nameservers: [...domain.nameservers],
    whois_privacy: domain.whoisPrivacy,
    dns_records: (await embeddedRecords(services.store, domain)).map((record) => {
      const { updated_at: _updatedAt, ...summary } = toRecordD(record);
      return summary;
    }),
    pricing: {
      registration_price: formatCents(domain.registrationPrice),
      renewal_price: formatCents(domain.renewalPrice),
      currency: domain.currency,
    },
    ...(await delegationFields(services, domain)),
    transfer_lock: (await transferControlsOf(services.store, domain)).transferLock,
  };
}
