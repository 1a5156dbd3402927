/** A user's domains: list, read, settings, renewal. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { timestamp } from "../clock.js";
import { partnerOf, type RequestContext } from "../context.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { updateDomainSettings } from "../domains/domain-settings.js";
import { domainDetail, domainSummary } from "../domains/domain-views.js";
import { renewDomain } from "../domains/renewal.js";
import { apiErrors } from "../errors.js";
import { formatCents } from "../money.js";

type Handlers = OperationHandlers<RequestContext>;

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
    const updated = updateDomainSettings(services, domain, { autoRenew: body.auto_renew, whoisPrivacy: body.whois_privacy });
    return {
      status: 200,
      body: {
        id: updated.id,
        name: updated.name,
        auto_renew: updated.autoRenew,
        whois_privacy: updated.whoisPrivacy,
        updated_at: timestamp(updated.updatedAt),
      },
    };
  },

  renewDomain: ({ path, body }, context) => {
    const { services } = context;
    const domain = domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const { domain: renewed, cost, renewedAt } = renewDomain(services, domain, body.years);
    return {
      status: 200,
      body: {
        id: renewed.id,
        name: renewed.name,
        expires_at: timestamp(renewed.expiresAt),
        renewal_cost: formatCents(cost),
        currency: renewed.currency,
        renewed_at: timestamp(renewedAt),
      },
    };
  },
};
