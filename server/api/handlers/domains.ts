/** A user's domains: list, read, settings, renewal. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { timestamp } from "../../platform/clock.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { assertIfMatch, entityTag } from "../../platform/entity-tags.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { domainPage } from "../../domain/domains/domain-pages.js";
import { updateDomainSettings } from "../../domain/domains/domain-settings.js";
import { domainSummary, partnerDomainDetail } from "../../domain/domains/domain-views.js";
import { renewDomain } from "../../domain/domains/renewal.js";
import { controlsWithDefaults, transferControlsOf } from "../../domain/domains/transfer-controls.js";
import { apiErrors } from "../../platform/errors.js";
import { formatCents } from "../../platform/money.js";

type Handlers = OperationHandlers<RequestContext>;

export const domainHandlers: Pick<Handlers, "listUserDomains" | "getDomain" | "updateDomain" | "renewDomain"> = {
  listUserDomains: async ({ path, query }, context) => {
    const { store } = context.services;
    const partner = partnerOf(context);
    if (!(await store.findUser(partner.id, path.user_identifier))) throw apiErrors.notFound("User", path.user_identifier);
    const page = await domainPage(store, partner.id, path.user_identifier, query);
    const [counts, controls] = await Promise.all([
      Promise.all(page.domains.map((domain) => store.countRecords(domain.id))),
      store.transferOut.controlsOfDomains(page.domains.map((domain) => domain.id)),
    ]);
    const domains = page.domains.map((domain, index) => ({
      ...domainSummary(domain),
      dns_records_count: counts[index]!,
      transfer_lock: controlsWithDefaults(domain, controls.get(domain.id)).transferLock,
    }));
    return { status: 200, body: { domains, total: page.total, next_cursor: page.nextCursor } };
  },

  getDomain: async ({ path }, context) => {
    const { domain, detail } = await partnerDomainDetail(context.services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: detail, etag: entityTag(domain) };
  },

  updateDomain: async ({ path, header, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    assertIfMatch(header["If-Match"], domain, "domain");
    const updated = await updateDomainSettings(services, domain, {
      autoRenew: body.auto_renew,
      whoisPrivacy: body.whois_privacy,
      transferLock: body.transfer_lock,
    });
    return {
      status: 200,
      body: {
        id: updated.id,
        name: updated.name,
        auto_renew: updated.autoRenew,
        whois_privacy: updated.whoisPrivacy,
        transfer_lock: (await transferControlsOf(services.store, updated)).transferLock,
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
