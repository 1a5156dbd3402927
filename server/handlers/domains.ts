/** A user's domains: list, read, settings, renewal. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { addYears, timestamp } from "../clock.js";
import { partnerOf, type RequestContext } from "../context.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { domainDetail, domainSummary } from "../domains/domain-views.js";
import { apiErrors } from "../errors.js";
import { formatCents } from "../money.js";
import type { DomainRow } from "../store/types.js";

type Handlers = OperationHandlers<RequestContext>;

/** A registration may not end more than this many years ahead (registry rule for gTLDs). */
const MAX_YEARS_AHEAD = 10;

export const domainHandlers: Pick<Handlers, "listUserDomains" | "getDomain" | "updateDomain" | "renewDomain"> = {
  listUserDomains: ({ path }, context) => {
    const { store } = context.services;
    const partner = partnerOf(context);
    if (!store.findUser(partner.id, path.user_identifier)) throw apiErrors.notFound("User", path.user_identifier);
    const domains = store.domainsOfUser(partner.id, path.user_identifier).map((domain) => ({
      ...domainSummary(domain),
      dns_records_count: store.countRecords(domain.id),
    }));
    return { status: 200, body: { domains, total: domains.length } };
  },

  getDomain: ({ path }, context) => {
    const domain = domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: domainDetail(context.services, domain) };
  },

  updateDomain: ({ path, body }, context) => {
    const { services } = context;
    const domain = domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const updated: DomainRow = {
      ...domain,
      autoRenew: body.auto_renew ?? domain.autoRenew,
      whoisPrivacy: body.whois_privacy ?? domain.whoisPrivacy,
      updatedAt: services.clock.now(),
    };
    services.store.saveDomain(updated);
    services.outbox.emit(domain.partnerId, "domain.updated", { data: domainDetail(services, updated) });
    return {
      status: 200,
      body: { id: updated.id, name: updated.name, auto_renew: updated.autoRenew, whois_privacy: updated.whoisPrivacy, updated_at: timestamp(updated.updatedAt) },
    };
  },

  renewDomain: ({ path, body }, context) => {
    const { services } = context;
    const domain = domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    if (domain.status === "pending" || domain.status === "suspended") {
      throw apiErrors.conflict(`A ${domain.status} domain cannot be renewed`, { field: "status", code: "invalid_status" });
    }
    const now = services.clock.now();
    // An expired domain is renewed from today; an active one from its current expiry.
    const base = domain.expiresAt > now ? domain.expiresAt : now;
    const expiresAt = addYears(base, body.years);
    if (expiresAt > addYears(now, MAX_YEARS_AHEAD)) {
      throw apiErrors.unprocessable(`A registration may not end more than ${MAX_YEARS_AHEAD} years from now; at most ${maxRenewableYears(base, now)} more years are possible`, { field: "years", code: "out_of_range" });
    }
    const cost = body.years * domain.renewalPrice;
    const renewed: DomainRow = { ...domain, expiresAt, status: "active", updatedAt: now };
    services.store.saveDomain(renewed);
    const user = services.store.findUser(domain.partnerId, domain.userIdentifier)!;
    services.store.saveUser({ ...user, totalSpent: user.totalSpent + cost });
    services.outbox.emit(domain.partnerId, "domain.renewed", { data: domainDetail(services, renewed) });
    return {
      status: 200,
      body: { id: renewed.id, name: renewed.name, expires_at: timestamp(expiresAt), renewal_cost: formatCents(cost), currency: renewed.currency, renewed_at: timestamp(now) },
    };
  },
};

function maxRenewableYears(base: Date, now: Date): number {
  let years = 0;
  while (years < MAX_YEARS_AHEAD && addYears(base, years + 1) <= addYears(now, MAX_YEARS_AHEAD)) years++;
  return years;
}
