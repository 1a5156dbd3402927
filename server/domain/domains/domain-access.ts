/** Tenancy: a partner reaches only its own domains (404 when unknown, 403 when another partner's). */
import { apiErrors } from "../../platform/errors.js";
import type { DomainRow, DomainStore } from "./domain-store.js";

export async function domainOfPartner(store: DomainStore, partnerId: string, domainId: string): Promise<DomainRow> {
  const domain = await store.findDomain(domainId);
  if (!domain) throw apiErrors.notFound("Domain", domainId);
  if (domain.partnerId !== partnerId) throw apiErrors.forbidden("domain");
  return domain;
}
