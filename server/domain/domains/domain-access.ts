/**
 * Tenancy: a partner reaches only its own domains (404 when unknown, 403 when another partner's),
 * and a key restricted to some domains only those (403 key_restricted).
 */
import { assertDomainAllowed } from "../access/key-access.js";
import { apiErrors } from "../../platform/errors.js";
import type { DomainRow, DomainStore } from "./domain-store.js";

export async function domainOfPartner(store: DomainStore, partnerId: string, domainId: string): Promise<DomainRow> {
  return assertDomainOfPartner(await store.findDomain(domainId), partnerId, domainId);
}

/** The same checks of a domain already read (or not found): a read that took the domain with more. */
export function assertDomainOfPartner(domain: DomainRow | undefined, partnerId: string, domainId: string): DomainRow {
  if (!domain) throw apiErrors.notFound("Domain", domainId);
  if (domain.partnerId !== partnerId) throw apiErrors.forbidden("domain");
  // A key restricted to other domains: after tenancy, so another partner's domain still reads as forbidden.
  assertDomainAllowed(domain.name);
  return domain;
}
