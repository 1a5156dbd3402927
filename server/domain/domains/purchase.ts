/**
 * Buying a name for a user: what the embedded interface's purchase and the sandbox's register-a-domain
 * helper both do. Checks availability (with the sandbox's magic names), prices premium names, registers
 * the domain, charges the user and emits `domain.registered`.
 */
import { assertDomainAllowed } from "../access/key-access.js";
import { isAvailable, isPremium, yearlyPriceOf } from "../catalog/availability.js";
import { parseDomainName } from "../catalog/domain-names.js";
import type { DomainServices } from "./domain-services.js";
import { apiErrors } from "../../platform/errors.js";
import type { Cents } from "../../platform/money.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";
import type { TldPrice } from "../catalog/tlds.js";
import { assertRegistrationYears, registerDomain } from "./registration.js";

export interface Purchase {
  partnerId: string;
  userIdentifier: string;
  domainName: string;
  years?: number;
  autoRenew?: boolean;
  whoisPrivacy?: boolean;
  /**
   * The total the buyer was shown and agreed to; when given, a purchase that would charge anything
   * else is refused (409 `price_changed`) and nothing is charged.
   */
  expectedCharge?: Cents;
}

/** 422 when the TLD takes no new registrations. */
function assertOpen(tld: TldPrice): void {
  if (!tld.available) throw apiErrors.invalidValue("domain_name", "invalid_value", `Registrations of .${tld.tld} domains are closed`);
}

/** `services` must be the partner's (servicesOf): the registration, the charge and the event carry its time. */
export async function purchaseDomain(services: DomainServices, purchase: Purchase): Promise<DomainRow> {
  const { store, deployment } = services;
  const { name, label, tld } = parseDomainName(purchase.domainName, "domain_name");
  // A key restricted to some domains buys no other (the embedded interface has no key: nothing is restricted there).
  assertDomainAllowed(name);
  if (!(await store.findUser(purchase.partnerId, purchase.userIdentifier))) throw apiErrors.notFound("User", purchase.userIdentifier);
  assertOpen(tld);
  if (!(await isAvailable(store, deployment.environment, name, label, true))) {
    throw apiErrors.conflict(`${name} is not available`, { field: "domain_name", code: "not_available" });
  }
  const years = purchase.years ?? 1;
  assertRegistrationYears(years);
  const yearlyPrice = yearlyPriceOf(label, tld, deployment.environment);
  if (purchase.expectedCharge !== undefined && purchase.expectedCharge !== yearlyPrice * years) {
    throw apiErrors.conflict(`The price of ${name} changed since it was shown`, { field: "years", code: "price_changed" });
  }
  const domain = await registerDomain(store, services.clock, {
    partnerId: purchase.partnerId,
    userIdentifier: purchase.userIdentifier,
    name,
    tld,
    years,
    charge: yearlyPrice * years,
    autoRenew: purchase.autoRenew,
    whoisPrivacy: purchase.whoisPrivacy,
  });
  services.outbox.emit(purchase.partnerId, "domain.registered", { data: await domainDetail(services, domain) });
  return domain;
}

export interface PurchaseQuote {
  name: string;
  years: number;
  premium: boolean;
  yearlyPrice: Cents;
  total: Cents;
  /** What each later year costs when the domain renews. */
  renewalPrice: Cents;
  currency: string;
}

/** What buying the name for `years` costs, as the purchase will charge it; refuses what the purchase would (422) but availability. */
export function purchaseQuote(services: DomainServices, domainName: string, years: number): PurchaseQuote {
  const { name, label, tld } = parseDomainName(domainName, "domain_name");
  assertOpen(tld);
  assertRegistrationYears(years);
  const yearlyPrice = yearlyPriceOf(label, tld, services.deployment.environment);
  return {
    name,
    years,
    premium: isPremium(label, services.deployment.environment),
    yearlyPrice,
    total: yearlyPrice * years,
    renewalPrice: tld.renewal,
    currency: "USD",
  };
}
