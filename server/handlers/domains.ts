/** A user's domains: list, read, settings, renewal. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { timestamp } from "../clock.js";
import { partnerOf, type RequestContext } from "../context.js";
import { assertIfMatch, entityTag } from "../concurrency/entity-tags.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { domainPage } from "../domains/domain-pages.js";
import { updateDomainSettings } from "../domains/domain-settings.js";
import { domainDetail, domainSummary } from "../domains/domain-views.js";
import { renewDomain } from "../domains/renewal.js";
import { apiErrors } from "../errors.js";
import { formatCents } from "../money.js";

type Handlers = OperationHandlers<RequestContext>;

export const domainHandlers: Pick<Handlers, "listUserDomains" | "getDomain" | "updateDomain" | "renewDomain"> = {
  listUserDomains: async ({ path, query }, context) => {
    const { store } = context.services;
    const partner = partnerOf(context);
    if (!(await store.findUser(partner.id, path.user_identifier))) throw apiErrors.notFound("User", path.user_identifier);
    const page = await domainPage(store, partner.id, path.user_identifier, query);
    const counts = await Promise.all(page.domains.map((domain) => store.countRecords(domain.id)));
    const domains = page.domains.map((domain, index) => ({ ...domainSummary(domain), dns_records_count: counts[index]! }));
    return { status: 200, body: { domains, total: page.total, next_cursor: page.nextCursor } };
  },

  getDomain: async ({ path }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: await domainDetail(context.services, domain), etag: entityTag(domain) };
  },

  updateDomain: async ({ path, header, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    assertIfMatch(header["If-Match"], domain, "domain");
    const updated = await updateDomainSettings(services, domain, { autoRenew: body.auto_renew, whoisPrivacy: body.whois_privacy });
    return {
      status: 200,
      body: {
        id: updated.id,
        name: updated.name,
        auto_renew: updated.autoRenew,
        whois_privacy: updated.whoisPrivacy,
        updated_at: timestamp(updated.updatedAt),
      },
      etag: entityTag(updated),
    };
  },

  renewDomain: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const { domain: renewed, cost, renewedAt } = await renewDomain(services, domain, body.years);
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
