/** Renewal: the money and the dates computed from the inputs, the ten-year cap, the bounds of `years`, the states that refuse it. */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import {
  amount,
  calendarYearsLater,
  anotherOpenTld,
  cents,
  expectWithin,
  expectYearsLater,
  getDomain,
  needsDomainDetails,
  newDomain,
  newUser,
  SANDBOX_CLOCK,
  SANDBOX_DOMAINS,
  sandboxNow,
  tldCatalogue,
  totalSpent,
} from "./domains-support.js";
import { expectAnswer, expectCoded } from "./expectations.js";

const renew = (context: CheckContext, domainId: string, body: unknown) =>
  context.api.call("renewDomain", { path: { domain_id: domainId }, body });

/** Fails unless the domain's expiry and its user's total_spent are what they were: a refused request changes nothing. */
async function expectUnchanged(context: CheckContext, domain: any, user: string, spent: number, after: string): Promise<void> {
  const read = await getDomain(context, domain.id);
  expect({ after, expires_at: read.expires_at, status: read.status }).toEqual({
    after,
    expires_at: domain.expires_at,
    status: domain.status,
  });
  expect({ after, total_spent: await totalSpent(context, user) }).toEqual({ after, total_spent: spent });
}

export default defineChecks([
  {
    id: "renewals.cost-is-years-times-the-renewal-price",
    title: "renewal_cost is years times the TLD's renewal price from the TLD list, in its currency, and is added to total_spent",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const catalogue = await tldCatalogue(context);
      const other = await anotherOpenTld(context, (entry) => entry.renewal_price);
      const user = await newUser(context);
      for (const [tld, years] of [
        ["com", 3],
        [other.tld, 2],
        ["com", 1],
      ] as const) {
        const prices = catalogue.get(tld) ?? context.notApplicable(`the TLD list has no .${tld}`);
        const domain = await newDomain(context, user, { tld, years: 1 });
        const spent = await totalSpent(context, user);
        const result = await renew(context, domain.id, { years });
        expectAnswer(result, 200, { id: domain.id, name: domain.name });
        const expected = amount(years * cents(prices.renewal_price));
        expect({ tld, years, renewal_cost: result.body.renewal_cost, currency: result.body.currency }).toEqual({
          tld,
          years,
          renewal_cost: expected,
          currency: prices.currency,
        });
        expect({ tld, years, total_spent: await totalSpent(context, user) }).toEqual({ tld, years, total_spent: spent + cents(expected) });
      }
    },
  },
  {
    id: "renewals.expiry-moves-by-calendar-years",
    title: "a renewal moves expires_at by exactly `years` calendar years (leap days counted), in the answer and on read",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      // Four years always hold a 29 February, so a renewal counted in 365-day years falls a day short.
      for (const years of [4, 1]) {
        const domain = await newDomain(context, user, { years: 1 });
        const before = await sandboxNow(context);
        const result = await renew(context, domain.id, { years });
        const after = await sandboxNow(context);
        expectAnswer(result, 200);
        expectYearsLater(result.body.expires_at, domain.expires_at, years, `expires_at after renewing for ${years} year(s)`);
        expectWithin(result.body.renewed_at, before, after, "renewed_at");
        const read = await getDomain(context, domain.id);
        expect({ read_expires_at: read.expires_at, status: read.status }).toEqual({
          read_expires_at: result.body.expires_at,
          status: "active",
        });
      }
    },
  },
  {
    id: "renewals.years-outside-one-to-ten-refused",
    title: "years 0 or 11 gives 422 validation_error out_of_range; a missing or non-integer years gives 400; nothing is charged",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const domain = await newDomain(context, user, { years: 1 });
      const spent = await totalSpent(context, user);
      for (const years of [0, 11, -1])
        expectCoded(await renew(context, domain.id, { years }), 422, "validation_error", "years", "out_of_range", `years ${years}`);
      expectCoded(await renew(context, domain.id, { years: "2" }), 400, "validation_error", "years", "invalid_type", 'years "2"');
      expectCoded(await renew(context, domain.id, { years: 1.5 }), 400, "validation_error", "years", "invalid_type", "years 1.5");
      expectCoded(await renew(context, domain.id, {}), 400, "validation_error", "years", "missing_required_field", "no years");
      await expectUnchanged(context, domain, user, spent, "refused renewals");
      expectAnswer(await renew(context, domain.id, { years: 1 }), 200, undefined, "years 1");
    },
  },
  {
    id: "renewals.registration-never-ends-beyond-ten-years",
    title:
      "a renewal that would end more than 10 years from now gives 422 unprocessable_entity (years, out_of_range) and changes nothing; up to 10 is accepted",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const domain = await newDomain(context, user, { years: 1 });
      const spent = await totalSpent(context, user);
      // Registered for a year: ten more years would end eleven years from now.
      expectCoded(
        await renew(context, domain.id, { years: 10 }),
        422,
        "unprocessable_entity",
        "years",
        "out_of_range",
        "years 10 on a 1-year registration",
      );
      await expectUnchanged(context, domain, user, spent, "a renewal beyond ten years");
      const nine = await renew(context, domain.id, { years: 9 });
      expectAnswer(nine, 200, undefined, "years 9 on a 1-year registration (ends ten years from now)");
      expectYearsLater(nine.body.expires_at, domain.expires_at, 9, "expires_at after renewing for 9 years");
      const atCap = await getDomain(context, domain.id);
      expectCoded(
        await renew(context, domain.id, { years: 1 }),
        422,
        "unprocessable_entity",
        "years",
        "out_of_range",
        "a year more at ten years ahead",
      );
      await expectUnchanged(context, atCap, user, spent + cents(nine.body.renewal_cost), "a renewal at the cap");
      const fresh = await newDomain(context, user, { years: 1 });
      await context.api.call("setSandboxDomainStatus", { path: { domain_id: fresh.id }, body: { status: "expired" } });
      expectAnswer(
        await renew(context, fresh.id, { years: 10 }),
        200,
        undefined,
        "years 10 on an expired domain (ends ten years from now)",
      );
    },
  },
  {
    id: "renewals.pending-or-suspended-refused",
    title: "renewing a pending or suspended domain gives 409 conflict (status, invalid_status) and charges nothing",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, "setSandboxDomainStatus"],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      for (const status of ["pending", "suspended"]) {
        const domain = await newDomain(context, user, { years: 1 });
        const set = await context.api.call("setSandboxDomainStatus", { path: { domain_id: domain.id }, body: { status } });
        expectAnswer(set, 200, { status });
        const spent = await totalSpent(context, user);
        expectCoded(
          await renew(context, domain.id, { years: 1 }),
          409,
          "conflict",
          "status",
          "invalid_status",
          `renewing a ${status} domain`,
        );
        await expectUnchanged(context, set.body, user, spent, `renewing a ${status} domain`);
      }
    },
  },
  {
    id: "renewals.expired-domain-renewed-from-now",
    title: "an expired domain can be renewed: it becomes active, expiring `years` calendar years from the renewal",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, "setSandboxDomainStatus"],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const domain = await newDomain(context, user, { years: 1 });
      const expired = await context.api.call("setSandboxDomainStatus", { path: { domain_id: domain.id }, body: { status: "expired" } });
      expectAnswer(expired, 200, { status: "expired" });
      const spent = await totalSpent(context, user);
      const result = await renew(context, domain.id, { years: 2 });
      expectAnswer(result, 200);
      // The helper moved expires_at to the moment of expiry, just before the renewal: counted from either, two years on.
      expectWithin(
        result.body.expires_at,
        calendarYearsLater(expired.body.expires_at, 2)[0]!,
        calendarYearsLater(result.body.renewed_at, 2).at(-1)!,
        "expires_at of an expired domain renewed for 2 years",
      );
      const read = await getDomain(context, domain.id);
      expect({ status: read.status, expires_at: read.expires_at }).toEqual({ status: "active", expires_at: result.body.expires_at });
      expect(await totalSpent(context, user)).toBe(spent + 2 * cents(read.pricing.renewal_price));
    },
  },
]);
