/**
 * What the domain, renewal, transfer, catalogue and sandbox checks share: their own users and
 * sandbox domains, money in cents, calendar years, the partner's sandbox clock, and the error
 * expectations with exact codes.
 */
import { expect } from "expect";
import type { CheckContext } from "../check.js";
import { expectAnswer, expectConforming, expectStatus } from "./expectations.js";

/** The sandbox helpers a check of these families uses to make its own data. */
export const SANDBOX_DOMAINS = ["createSandboxDomain"];
export const SANDBOX_CLOCK = ["getSandboxClock", "advanceSandboxClock"];

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A decimal amount of the API ("14.99") in cents, exactly (no floating point). */
export function cents(amount: string): number {
  const match = /^(0|[1-9][0-9]*)\.([0-9]{2})$/.exec(amount);
  if (!match) throw new Error(`${JSON.stringify(amount)} is not a decimal amount with two decimals`);
  return Number(match[1]) * 100 + Number(match[2]);
}

export const amount = (inCents: number) => `${Math.floor(inCents / 100)}.${String(inCents % 100).padStart(2, "0")}`;

/**
 * `from` moved by whole calendar years in UTC: the same month, day and time of day. On 29 February
 * into a year without one the day is not stated, so either neighbour is accepted.
 */
export function calendarYearsLater(from: string | Date, years: number): Date[] {
  const start = new Date(from);
  const same = new Date(start);
  same.setUTCFullYear(start.getUTCFullYear() + years);
  if (same.getUTCDate() === start.getUTCDate()) return [same];
  const lastOfFebruary = new Date(same);
  lastOfFebruary.setUTCDate(0);
  return [lastOfFebruary, same];
}

/** Fails unless `actual` is `from` plus `years` calendar years, to the second. */
export function expectYearsLater(actual: string, from: string | Date, years: number, what: string): void {
  const candidates = calendarYearsLater(from, years);
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  if (!candidates.some((candidate) => seconds(candidate) === seconds(new Date(actual))))
    throw new Error(
      `${what} is ${actual}, expected ${years} calendar year(s) after ${new Date(from).toISOString()}: ${candidates.map((c) => c.toISOString()).join(" or ")}`,
    );
}

/** A new user of the partner, for this check alone. */
export async function newUser(context: CheckContext, stem = "h2user"): Promise<string> {
  const user = context.unique(stem).replace(/[^A-Za-z0-9_-]/g, "_");
  expectAnswer(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
  return user;
}

/** A name no one holds: a unique label (never premium, never magic) on `tld`. */
export const freeName = (context: CheckContext, tld = "com", stem = "h2name") => `${context.unique(stem)}.${tld}`;

export interface DomainOptions {
  tld?: string;
  name?: string;
  years?: number;
  auto_renew?: boolean;
  whois_privacy?: boolean;
}

/** Registers a domain for `user` through the sandbox helper (what a purchase does); answers the detail. */
export async function newDomain(context: CheckContext, user: string, options: DomainOptions = {}): Promise<any> {
  const { tld, name, ...rest } = options;
  const result = await context.api.call("createSandboxDomain", {
    body: { user_identifier: user, domain_name: name ?? freeName(context, tld), ...rest },
  });
  expectAnswer(result, 201, undefined, "registering a domain through the sandbox helper");
  return result.body;
}

export async function getDomain(context: CheckContext, domainId: string): Promise<any> {
  const result = await context.api.call("getDomain", { path: { domain_id: domainId } });
  expectAnswer(result, 200);
  return result.body;
}

/** The user's `total_spent` in cents. */
export async function totalSpent(context: CheckContext, user: string): Promise<number> {
  const result = await context.api.call("getUser", { path: { user_identifier: user } });
  expectAnswer(result, 200);
  return cents(result.body.total_spent);
}

export interface TldEntry {
  tld: string;
  registration_price: string;
  renewal_price: string;
  transfer_price: string;
  currency: string;
  available: boolean;
}

/** The TLD list, by TLD. */
export async function tldCatalogue(context: CheckContext): Promise<Map<string, TldEntry>> {
  const result = await context.api.call("listTlds");
  expectAnswer(result, 200);
  return new Map((result.body.tlds as TldEntry[]).map((entry) => [entry.tld, entry]));
}

/** An open TLD of the catalogue other than `.com` whose prices differ from `.com`'s, so a price taken from the wrong TLD shows. */
export async function anotherOpenTld(context: CheckContext, purpose: (entry: TldEntry) => string): Promise<TldEntry> {
  const catalogue = await tldCatalogue(context);
  const com = catalogue.get("com");
  const other = [...catalogue.values()].find(
    (entry) => entry.available && entry.tld !== "com" && entry.tld.length >= 2 && (!com || purpose(entry) !== purpose(com)),
  );
  if (!other) context.notApplicable("the TLD list has no open TLD priced differently from .com");
  return other;
}

/** The partner's sandbox time. */
export async function sandboxNow(context: CheckContext): Promise<Date> {
  const result = await context.api.call("getSandboxClock");
  expectAnswer(result, 200);
  return new Date(result.body.now);
}

/** Moves the partner's sandbox clock to `to` (when it lies ahead); answers the advance. */
export async function advanceTo(context: CheckContext, to: Date): Promise<any> {
  const result = await context.api.call("advanceSandboxClock", { body: { to: to.toISOString().replace(/\.\d{3}Z$/, "Z") } });
  expectAnswer(result, 200, undefined, `advancing the sandbox clock to ${to.toISOString()}`);
  return result.body;
}

/** Fails unless `actual` lies between `earliest` and `latest` (whole seconds, as timestamps are written). */
export function expectWithin(actual: string, earliest: Date, latest: Date, what: string): void {
  const at = new Date(actual).getTime();
  const low = Math.floor(earliest.getTime() / 1000) * 1000;
  const high = Math.ceil(latest.getTime() / 1000) * 1000;
  if (!(at >= low && at <= high))
    throw new Error(`${what} is ${actual}, expected between ${earliest.toISOString()} and ${latest.toISOString()}`);
}

/** The user's domains (the whole list, no page). */
export async function domainsOf(context: CheckContext, user: string, query: Record<string, string> = {}): Promise<any> {
  const result = await context.api.call("listUserDomains", { path: { user_identifier: user }, query });
  expectAnswer(result, 200);
  return result.body;
}

export { expect };

/** Variant R documents a domain as `id` and `name` only: a check that reads more does not apply to a Variant R target. */
export function needsDomainDetails(context: CheckContext): void {
  if (context.target.kind === "R") context.notApplicable("a Variant R target documents a domain's id and name only");
}
