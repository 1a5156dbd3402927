/**
 * Registering a domain for a user: what a purchase in the embedded interface and a completed
 * transfer both do. Charges the user and creates the domain.
 */
import { addYears, type Clock } from "../../platform/clock.js";
import { apiErrors } from "../../platform/errors.js";
import { newId } from "../../platform/ids.js";
import type { Cents } from "../../platform/money.js";
import type { DomainRow, DomainStore } from "./domain-store.js";
import type { UserStore } from "../users/user-store.js";
import type { TldPrice } from "../catalog/tlds.js";

export const REGISTRAR_NAME = "Partner Domains Registrar";
export const DEFAULT_NAMESERVERS = ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"];
/** Registrations and renewals run 1 to 10 years at a time (the registry rule the spec states for `years`). */
export const MAX_REGISTRATION_YEARS = 10;

/** 422 unless `years` is a registration period: whole years from 1 to MAX_REGISTRATION_YEARS. The API's schema already bounds it; the embedded interface's forms reach the rules unchecked. */
export function assertRegistrationYears(years: number): void {
  if (!Number.isInteger(years) || years < 1 || years > MAX_REGISTRATION_YEARS) {
    throw apiErrors.invalidValue("years", "out_of_range", `years must be a whole number from 1 to ${MAX_REGISTRATION_YEARS}`);
  }
}

export interface Registration {
  partnerId: string;
  userIdentifier: string;
  name: string;
  tld: TldPrice;
  years: number;
  /** What the user is charged; added to total spent. */
  charge: Cents;
  /** Default on, as at most registrars, so a forgotten domain is not lost. */
  autoRenew?: boolean;
  whoisPrivacy?: boolean;
}

export async function registerDomain(store: UserStore & DomainStore, clock: Clock, registration: Registration): Promise<DomainRow> {
  const user = await store.findUser(registration.partnerId, registration.userIdentifier);
  if (!user) throw apiErrors.notFound("User", registration.userIdentifier);
  if (await store.findDomainByName(registration.name)) {
    throw apiErrors.conflict(`${registration.name} is already registered`, { field: "domain_name", code: "already_registered" });
  }
  const now = clock.now();
  const domain: DomainRow = {
    id: newId("dom"),
    partnerId: registration.partnerId,
    userIdentifier: registration.userIdentifier,
    name: registration.name,
    status: "active",
    purchasedAt: now,
    expiresAt: addYears(now, registration.years),
    autoRenew: registration.autoRenew ?? true,
    whoisPrivacy: registration.whoisPrivacy ?? true,
    nameservers: [...DEFAULT_NAMESERVERS],
    registrationPrice: registration.tld.registration,
    renewalPrice: registration.tld.renewal,
    currency: "USD",
    updatedAt: now,
  };
  await store.saveDomain(domain);
  await store.saveUser({ ...user, totalSpent: user.totalSpent + registration.charge });
  return domain;
}
