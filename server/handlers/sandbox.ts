/** Sandbox test helpers (spec tag Sandbox): the clock, registering domains, domain status, reset. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { sandboxMaxAdvanceSeconds } from "../../generated/operations.js";
import { parseDateTime, timestamp } from "../clock.js";
import { partnerOf, type RequestContext, type Services } from "../context.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { setDomainStatus } from "../domains/domain-lifecycle.js";
import { purchaseDomain } from "../domains/purchase.js";
import { domainDetail } from "../domains/domain-views.js";
import { apiErrors } from "../errors.js";
import { rateLimitScope } from "../rate-limits/policy.js";
import { applyDueChanges } from "../scheduling/due-changes.js";
import { inTransaction } from "../transactions.js";

type Handlers = OperationHandlers<RequestContext>;

function clockView(services: Services, partnerId: string) {
  return { now: timestamp(services.clock.now()), advanced_seconds: Math.floor(services.clocks.offsetOf(partnerId) / 1000) };
}

export const sandboxHandlers: Pick<
  Handlers,
  "getSandboxClock" | "advanceSandboxClock" | "createSandboxDomain" | "setSandboxDomainStatus" | "resetSandbox"
> = {
  getSandboxClock: (_input, context) => ({ status: 200, body: clockView(context.services, partnerOf(context).id) }),

  advanceSandboxClock: async ({ body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const now = services.clock.now();
    // parseDateTime, not new Date: the validator lets through RFC 3339 spellings Date cannot read
    // (a leap second, `+01`), and an invalid time would be stored as the partner's clock offset.
    const target = body.seconds !== undefined ? new Date(now.getTime() + body.seconds * 1000) : parseDateTime(body.to!);
    if (!target) throw apiErrors.invalidValue("to", "invalid_format", "to must be an RFC 3339 date-time such as 2027-01-01T00:00:00Z");
    if (target <= now)
      throw apiErrors.invalidValue(
        "to",
        "invalid_value",
        `to must be later than the sandbox time ${timestamp(now)}; the clock never moves back`,
      );
    // The schema's bound of `seconds` (the validator has enforced it there) bounds `to` too: one rule.
    if (target.getTime() - now.getTime() > sandboxMaxAdvanceSeconds * 1000) {
      throw apiErrors.invalidValue(
        body.to ? "to" : "seconds",
        "out_of_range",
        `The clock moves at most ${sandboxMaxAdvanceSeconds} seconds (ten years of 365.25 days) per call`,
      );
    }
    await services.clocks.advance(partner.id, target.getTime() - now.getTime());
    const changes = await applyDueChanges(services, partner.id);
    return { status: 200, body: { ...clockView(services, partner.id), changes } };
  },

  createSandboxDomain: async ({ body }, context) => {
    const { services } = context;
    const domain = await purchaseDomain(services, {
      partnerId: partnerOf(context).id,
      userIdentifier: body.user_identifier,
      domainName: body.domain_name,
      years: body.years,
      autoRenew: body.auto_renew,
      whoisPrivacy: body.whois_privacy,
    });
    return { status: 201, body: await domainDetail(services, domain) };
  },

  setSandboxDomainStatus: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: await domainDetail(services, await setDomainStatus(services, domain, body.status)) };
  },

  resetSandbox: async (_input, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    await inTransaction(services, (tx) => tx.store.deletePartnerData(partner.id));
    await services.clocks.reset(partner.id);
    await services.rateLimitStore.forget(rateLimitScope(services.deployment.environment, partner.id));
    return { status: 204 };
  },
};
