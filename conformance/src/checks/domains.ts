/** A user's domains: read-your-write after registration, the meaning of each field, settings, not found, expiry. */
import { expect } from "expect";
import { defineChecks } from "../check.js";
import { announcedStatuses, eventsOfType } from "./events-support.js";
import {
  advanceTo,
  cents,
  DAY_MS,
  domainsOf,
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
import { expectAnswer, expectCoded, expectStatus } from "./expectations.js";

/** The fields a list item shares with the detail (the description: the detail is the list item minus dns_records_count, plus more). */
const SHARED_FIELDS = ["id", "name", "status", "purchased_at", "expires_at", "auto_renew", "registrar"] as const;

export default defineChecks([
  {
    id: "domains.registered-domain-is-readable",
    title: "a registered domain is read back at once, by id and in its user's list, with the same fields",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const created = await newDomain(context, user, { years: 2, auto_renew: false, whois_privacy: false });
      expect(created.id).toMatch(/^dom_./);
      const detail = await getDomain(context, created.id);
      expect(detail).toMatchObject({
        id: created.id,
        name: created.name,
        status: "active",
        user_identifier: user,
        auto_renew: false,
        whois_privacy: false,
        purchased_at: created.purchased_at,
        expires_at: created.expires_at,
      });
      expect(Array.isArray(detail.nameservers) && detail.nameservers.length > 0).toBe(true);
      const list = await domainsOf(context, user);
      expect(list.domains.map((domain: any) => domain.id)).toEqual([created.id]);
      expect(list.total).toBe(1);
      const item = list.domains[0];
      for (const field of SHARED_FIELDS) expect({ field, value: item[field] }).toEqual({ field, value: detail[field] });
      expect(item.dns_records_count).toBe(detail.dns_records.length);
      if (context.api.has("createDomainDnsRecord")) {
        const before = item.dns_records_count as number;
        for (const content of ["192.0.2.1", "192.0.2.2"])
          expectAnswer(
            await context.api.call("createDomainDnsRecord", { path: { domain_id: created.id }, body: { type: "A", name: "www", content } }),
            201,
          );
        const counted = (await domainsOf(context, user)).domains[0].dns_records_count;
        expect({ dns_records_count_after_two_creates: counted }).toEqual({ dns_records_count_after_two_creates: before + 2 });
        expect((await getDomain(context, created.id)).dns_records).toHaveLength(before + 2);
      }
    },
  },
  {
    id: "domains.dates-and-prices-mean-what-they-say",
    title: "purchased_at is the registration's time, expires_at that plus its years, pricing the TLD list's prices",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK],
    async run(context) {
      needsDomainDetails(context);
      const catalogue = await tldCatalogue(context);
      const user = await newUser(context);
      for (const [tld, years] of [
        ["com", 3],
        [[...catalogue.values()].find((entry) => entry.available && entry.tld !== "com")?.tld ?? "com", 1],
      ] as const) {
        const before = await sandboxNow(context);
        const created = await newDomain(context, user, { tld, years });
        const after = await sandboxNow(context);
        const detail = await getDomain(context, created.id);
        expectWithin(detail.purchased_at, before, after, `purchased_at of a domain registered just now`);
        expectYearsLater(detail.expires_at, detail.purchased_at, years, `expires_at of a ${years}-year registration`);
        const prices = catalogue.get(tld)!;
        expect({ tld, pricing: detail.pricing }).toEqual({
          tld,
          pricing: { registration_price: prices.registration_price, renewal_price: prices.renewal_price, currency: prices.currency },
        });
      }
    },
  },
  {
    id: "domains.list-holds-the-users-domains-only",
    title: "a user's list holds exactly that user's domains, newest purchase first, with total",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const [first, second] = [await newUser(context), await newUser(context)];
      const firstIds: string[] = [];
      for (let n = 0; n < 3; n++) firstIds.push((await newDomain(context, first)).id);
      const secondId = (await newDomain(context, second)).id;
      const firstList = await domainsOf(context, first);
      expect(new Set(firstList.domains.map((domain: any) => domain.id))).toEqual(new Set(firstIds));
      expect(firstList.domains).toHaveLength(3);
      expect(firstList.total).toBe(3);
      // Timestamps are written to the second, so within one second the newer purchase cannot be told apart.
      const purchased = firstList.domains.map((domain: any) => domain.purchased_at as string);
      expect({ purchased_newest_first: purchased }).toEqual({ purchased_newest_first: [...purchased].sort().reverse() });
      const secondList = await domainsOf(context, second);
      expect(secondList.domains.map((domain: any) => domain.id)).toEqual([secondId]);
      expect(secondList.total).toBe(1);
    },
  },
  {
    id: "domains.list-filters-by-status",
    title: "status= lists only the user's domains of that status, with their total",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, "setSandboxDomainStatus"],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const active = await newDomain(context, user);
      const suspended = await newDomain(context, user);
      expectAnswer(
        await context.api.call("setSandboxDomainStatus", { path: { domain_id: suspended.id }, body: { status: "suspended" } }),
        200,
      );
      for (const [status, ids] of [
        ["suspended", [suspended.id]],
        ["active", [active.id]],
        ["expired", []],
      ] as const) {
        const list = await domainsOf(context, user, { status });
        expect({ status, ids: list.domains.map((domain: any) => domain.id), total: list.total }).toEqual({
          status,
          ids,
          total: ids.length,
        });
      }
    },
  },
  {
    id: "domains.settings-change-and-read-back",
    title: "updating auto_renew or whois_privacy changes that setting only, in the answer and on every later read",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const created = await newDomain(context, user, { auto_renew: true, whois_privacy: true });
      const steps: [Record<string, boolean>, { auto_renew: boolean; whois_privacy: boolean }][] = [
        [{ auto_renew: false }, { auto_renew: false, whois_privacy: true }],
        [{ whois_privacy: false }, { auto_renew: false, whois_privacy: false }],
        [
          { auto_renew: true, whois_privacy: true },
          { auto_renew: true, whois_privacy: true },
        ],
        [{ whois_privacy: false }, { auto_renew: true, whois_privacy: false }],
      ];
      for (const [change, expected] of steps) {
        const before = await sandboxNow(context);
        const result = await context.api.call("updateDomain", { path: { domain_id: created.id }, body: change });
        const after = await sandboxNow(context);
        expectAnswer(result, 200, { id: created.id, name: created.name, ...expected });
        expectWithin(result.body.updated_at, before, after, "updated_at of a domain updated just now");
        const detail = await getDomain(context, created.id);
        expect({ after: change, read: { auto_renew: detail.auto_renew, whois_privacy: detail.whois_privacy } }).toEqual({
          after: change,
          read: expected,
        });
        const item = (await domainsOf(context, user)).domains.find((domain: any) => domain.id === created.id);
        expect({ after: change, listed_auto_renew: item.auto_renew }).toEqual({ after: change, listed_auto_renew: expected.auto_renew });
      }
      const empty = await context.api.call("updateDomain", { path: { domain_id: created.id }, body: {} });
      expectCoded(empty, 400, "validation_error", undefined, undefined, "an update with no setting");
    },
  },
  {
    id: "domains.unknown-domain-or-user-is-not-found",
    title: "reading, updating or renewing an unknown domain, or listing an unknown user's domains, gives 404 not_found",
    needs: ["state"],
    async run(context) {
      const missing = context.unique("dom_missing");
      expectCoded(await context.api.call("getDomain", { path: { domain_id: missing } }), 404, "not_found");
      expectCoded(await context.api.call("updateDomain", { path: { domain_id: missing }, body: { auto_renew: false } }), 404, "not_found");
      expectCoded(await context.api.call("renewDomain", { path: { domain_id: missing }, body: { years: 1 } }), 404, "not_found");
      expectCoded(
        await context.api.call("listUserDomains", { path: { user_identifier: context.unique("nobody").replace(/-/g, "_") } }),
        404,
        "not_found",
      );
    },
  },
  {
    id: "domains.expiry-follows-auto-renew",
    title:
      "when expires_at passes, a domain with auto_renew is renewed for a year and charged (domain.renewed); without, it becomes expired (domain.expired)",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, "listEvents", "setSandboxDomainStatus", "renewDomain"],
    // Moves the partner's clock past a year: sessions and registrations of other checks fall due.
    destructive: true,
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const renewing = await newDomain(context, user, { years: 1, auto_renew: true });
      const lapsing = await newDomain(context, user, { years: 1, auto_renew: false });
      // Only an active domain expires or renews; a suspended one keeps its status and its past expires_at.
      const suspended = await newDomain(context, user, { years: 1, auto_renew: false });
      expectStatus(
        await context.api.call("setSandboxDomainStatus", { path: { domain_id: suspended.id }, body: { status: "suspended" } }),
        200,
        "suspending a domain",
      );
      const spentBefore = await totalSpent(context, user);
      const justBefore = new Date(new Date(renewing.expires_at).getTime() - DAY_MS);
      await advanceTo(context, justBefore);
      expect((await getDomain(context, lapsing.id)).status).toBe("active");
      await advanceTo(
        context,
        new Date(Math.max(new Date(renewing.expires_at).getTime(), new Date(lapsing.expires_at).getTime()) + DAY_MS),
      );
      const renewed = await getDomain(context, renewing.id);
      expect({ auto_renew: true, status: renewed.status }).toEqual({ auto_renew: true, status: "active" });
      expectYearsLater(renewed.expires_at, renewing.expires_at, 1, "expires_at after an auto-renewal");
      const lapsed = await getDomain(context, lapsing.id);
      expect({ auto_renew: false, status: lapsed.status }).toEqual({ auto_renew: false, status: "expired" });
      expect(await totalSpent(context, user)).toBe(spentBefore + cents(renewed.pricing.renewal_price));
      const expiredList = await domainsOf(context, user, { status: "expired" });
      expect(expiredList.domains.map((domain: any) => domain.id)).toEqual([lapsing.id]);
      const renewals = (await eventsOfType(context, "domain.renewed", 100, 3)).filter((event) => event.data?.id === renewing.id);
      expect(renewals.map((event) => Date.parse(event.data.expires_at))).toEqual([Date.parse(renewed.expires_at)]);
      expect(await announcedStatuses(context, lapsing.id, "domain.expired")).toEqual(["expired"]);
      expect(await announcedStatuses(context, renewing.id, "domain.expired")).toEqual([]);
      expect(await getDomain(context, suspended.id)).toMatchObject({ status: "suspended", expires_at: suspended.expires_at });
      // The sandbox's set-status moves an expires_at still ahead to now; one already past stays.
      const setExpired = await context.api.call("setSandboxDomainStatus", {
        path: { domain_id: suspended.id },
        body: { status: "expired" },
      });
      expectAnswer(
        setExpired,
        200,
        { status: "expired", expires_at: suspended.expires_at },
        "setting expired a domain whose expires_at passed",
      );
      // Renewed after it expired, a domain runs from the renewal, not from its past expires_at.
      const beforeRenewal = await sandboxNow(context);
      const renewal = await context.api.call("renewDomain", { path: { domain_id: lapsing.id }, body: { years: 1 } });
      expectAnswer(renewal, 200, undefined, "renewing a domain expired for a day");
      const afterRenewal = await sandboxNow(context);
      const yearAfter = (at: Date) => new Date(new Date(at).setUTCFullYear(at.getUTCFullYear() + 1));
      expectWithin(
        renewal.body.expires_at,
        new Date(yearAfter(beforeRenewal).getTime() - 1000),
        yearAfter(afterRenewal),
        "expires_at of a lapsed domain renewed",
      );
    },
  },
]);
