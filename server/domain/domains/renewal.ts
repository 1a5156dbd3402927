/** Renewing a domain on request (the API's renew operation and the embedded interface). */
import { addYears } from "../../platform/clock.js";
import type { DomainServices } from "./domain-services.js";
import { apiErrors } from "../../platform/errors.js";
import type { Cents } from "../../platform/money.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";
import { assertRegistrationYears } from "./registration.js";

/** A registration may not end more than this many years ahead (registry rule for gTLDs). */
const MAX_YEARS_AHEAD = 10;

export interface Renewal {
  domain: DomainRow;
  cost: Cents;
  renewedAt: Date;
}

/**
 * Extends the registration by `years`, charges the user and emits `domain.renewed`. With
 * `expectedCost`, the total the user was shown, a renewal that would cost anything else is refused
 * (409 `price_changed`) and nothing is charged.
 */
export async function renewDomain(services: DomainServices, domain: DomainRow, years: number, expectedCost?: Cents): Promise<Renewal> {
  if (!isRenewable(domain)) {
    throw apiErrors.conflict(`A ${domain.status} domain cannot be renewed`, { field: "status", code: "invalid_status" });
  }
  assertRegistrationYears(years);
  const now = services.clock.now();
  const expiresAt = renewedUntil(domain, years, now);
  if (expiresAt > addYears(now, MAX_YEARS_AHEAD)) {
    throw apiErrors.unprocessable(
      `A registration may not end more than ${MAX_YEARS_AHEAD} years from now; at most ${renewableYears(domain, now)} more years are possible`,
      { field: "years", code: "out_of_range" },
    );
  }
  const cost = renewalCost(domain, years);
  if (expectedCost !== undefined && expectedCost !== cost) {
    throw apiErrors.conflict(`The renewal price of ${domain.name} changed since it was shown`, { field: "years", code: "price_changed" });
  }
  const renewed: DomainRow = { ...domain, expiresAt, status: "active", updatedAt: now };
  await services.store.saveDomain(renewed);
  const user = (await services.store.findUser(domain.partnerId, domain.userIdentifier))!;
  await services.store.saveUser({ ...user, totalSpent: user.totalSpent + cost });
  services.outbox.emit(domain.partnerId, "domain.renewed", { data: await domainDetail(services, renewed) });
  return { domain: renewed, cost, renewedAt: now };
}

/** What renewing for `years` charges: the domain's renewal price each year. */
export const renewalCost = (domain: DomainRow, years: number): Cents => years * domain.renewalPrice;

/** A pending or suspended domain cannot be renewed (409 `invalid_status`). */
export const isRenewable = (domain: DomainRow) => domain.status !== "pending" && domain.status !== "suspended";

/** The most years the domain can be renewed for now (0 when it already runs MAX_YEARS_AHEAD ahead). */
export function renewableYears(domain: DomainRow, now: Date): number {
  return maxRenewableYears(renewalBase(domain, now), now);
}

/** An expired domain is renewed from today; an active one from its current expiry. */
const renewalBase = (domain: DomainRow, now: Date) => (domain.expiresAt > now ? domain.expiresAt : now);

/** Where a renewal of `years` from now would leave the registration. */
export const renewedUntil = (domain: DomainRow, years: number, now: Date) => addYears(renewalBase(domain, now), years);

function maxRenewableYears(base: Date, now: Date): number {
  let years = 0;
  while (years < MAX_YEARS_AHEAD && addYears(base, years + 1) <= addYears(now, MAX_YEARS_AHEAD)) years++;
  return years;
}
