/** Sandbox test helpers (spec tag Sandbox): the clock, registering domains, domain status, reset. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { addYears, timestamp } from "../clock.js";
import { isAvailable, isPremium, PREMIUM_MULTIPLIER } from "../catalog/availability.js";
import { parseDomainName } from "../catalog/domain-names.js";
import { partnerOf, type RequestContext, type Services } from "../context.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { setDomainStatus } from "../domains/domain-lifecycle.js";
import { registerDomain } from "../domains/registration.js";
import { domainDetail } from "../domains/domain-views.js";
import { apiErrors } from "../errors.js";
import { rateLimitScope } from "../http/rate-limit.js";
import { applyDueChanges } from "../scheduling/due-changes.js";

type Handlers = OperationHandlers<RequestContext>;

const MAX_ADVANCE_YEARS = 10;

function clockView(services: Services, partnerId: string) {
  return { now: timestamp(services.clock.now()), advanced_seconds: Math.floor(services.clocks.offsetOf(partnerId) / 1000) };
}

export const sandboxHandlers: Pick<Handlers, "getSandboxClock" | "advanceSandboxClock" | "createSandboxDomain" | "setSandboxDomainStatus" | "resetSandbox"> = {
  getSandboxClock: (_input, context) => ({ status: 200, body: clockView(context.services, partnerOf(context).id) }),

  advanceSandboxClock: ({ body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const now = services.clock.now();
    const target = body.seconds !== undefined ? new Date(now.getTime() + body.seconds * 1000) : new Date(body.to!);
    if (target <= now) throw apiErrors.invalidValue("to", "invalid_value", `to must be later than the sandbox time ${timestamp(now)}; the clock never moves back`);
    if (target > addYears(now, MAX_ADVANCE_YEARS)) throw apiErrors.invalidValue(body.to ? "to" : "seconds", "out_of_range", `The clock moves at most ${MAX_ADVANCE_YEARS} years per call`);
    services.clocks.advance(partner.id, target.getTime() - now.getTime());
    const changes = applyDueChanges(services, partner.id);
    return { status: 200, body: { ...clockView(services, partner.id), changes } };
  },

  createSandboxDomain: ({ body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const { name, label, tld } = parseDomainName(body.domain_name, "domain_name");
    if (!services.store.findUser(partner.id, body.user_identifier)) throw apiErrors.notFound("User", body.user_identifier);
    if (!tld.available) throw apiErrors.invalidValue("domain_name", "invalid_value", `Registrations of .${tld.tld} domains are closed`);
    if (!isAvailable(services.store, services.deployment.environment, name, label, true)) {
      throw apiErrors.conflict(`${name} is not available`, { field: "domain_name", code: "not_available" });
    }
    const years = body.years ?? 1;
    const yearlyPrice = isPremium(label, services.deployment.environment) ? tld.registration * PREMIUM_MULTIPLIER : tld.registration;
    const domain = registerDomain(services.store, services.clock, {
      partnerId: partner.id,
      userIdentifier: body.user_identifier,
      name,
      tld,
      years,
      charge: yearlyPrice * years,
      autoRenew: body.auto_renew,
      whoisPrivacy: body.whois_privacy,
    });
    const detail = domainDetail(services, domain);
    services.outbox.emit(partner.id, "domain.registered", { data: detail });
    return { status: 201, body: detail };
  },

  setSandboxDomainStatus: ({ path, body }, context) => {
    const { services } = context;
    const domain = domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: domainDetail(services, setDomainStatus(services, domain, body.status)) };
  },

  resetSandbox: async (_input, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    services.store.deletePartnerData(partner.id);
    services.clocks.reset(partner.id);
    await services.rateLimitStore.forget(rateLimitScope(services.deployment.environment, partner.id));
    return { status: 204 };
  },
};
