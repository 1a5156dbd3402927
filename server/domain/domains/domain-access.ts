/**
 * Tenancy: a partner reaches only its own domains (404 when unknown, 403 when another partner's),
 * and a key restricted to some domains only those (403 key_restricted).
 */
import { assertDomainAllowed } from "../access/key-access.js";
import { apiErrors } from "../../platform/errors.js";
import type { DomainRow, DomainStore } from "./domain-store.js";

export async function domainOfPartner(store: DomainStore, partnerId: string, domainId: string): Promise<DomainRow> {
  const domain = await store.findDomain(domainId);
  if (!domain) throw apiErrors.notFound("Domain", domainId);
  if (domain.partnerId !== partnerId) throw apiErrors.forbidden("domain");
  // A key restricted to other domains: after tenancy, so another partner's domain still reads as forbidden.
  assertDomainAllowed(domain.name);
  return domain;
}
