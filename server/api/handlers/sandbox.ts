/** Sandbox test helpers (spec tag Sandbox): the clock, registering domains, domain status, reset. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { parseDateTime } from "../../platform/clock.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { setDomainStatus } from "../../domain/domains/domain-lifecycle.js";
import { purchaseDomain } from "../../domain/domains/purchase.js";
import { domainDetail } from "../../domain/domains/domain-views.js";
import { apiErrors } from "../../platform/errors.js";
import { advanceClockBy, advanceClockTo, clockView, resetSandbox } from "../../application/sandbox-actions.js";

type Handlers = OperationHandlers<RequestContext>;

export const sandboxHandlers: Pick<
  Handlers,
  "getSandboxClock" | "advanceSandboxClock" | "createSandboxDomain" | "setSandboxDomainStatus" | "resetSandbox"
> = {
  getSandboxClock: (_input, context) => ({ status: 200, body: clockView(context.services, partnerOf(context).id) }),

  advanceSandboxClock: async ({ body }, context) => {
    const { services } = context;
    // parseDateTime, not new Date: the validator lets through RFC 3339 spellings Date cannot read
    // (a leap second, `+01`), and an invalid time would be stored as the partner's clock offset.
    if (body.seconds !== undefined)
      return { status: 200, body: await advanceClockBy(services, partnerOf(context).id, body.seconds, "seconds") };
    const target = parseDateTime(body.to!);
    if (!target) throw apiErrors.invalidValue("to", "invalid_format", "to must be an RFC 3339 date-time such as 2027-01-01T00:00:00Z");
    return { status: 200, body: await advanceClockTo(services, partnerOf(context).id, target, "to") };
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
    await resetSandbox(context.services, partnerOf(context).id);
    return { status: 204 };
  },
};
