/** The sandbox helpers (additions): registering a domain, setting its status, the partner's clock, the reset. */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import {
  cents,
  expectWithin,
  freeName,
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
import { announcedStatuses } from "./events-support.js";
import { expectAnswer, expectCoded } from "./expectations.js";

/** The schema's bound of one advance: ten years of 365.25 days, in seconds. */
const MAX_ADVANCE_SECONDS = 315_576_000;
/** Small enough to leave everything other checks made where it was. */
const SMALL_ADVANCE_SECONDS = 90;

async function clock(context: CheckContext): Promise<{ now: Date; advanced: number }> {
  const result = await context.api.call("getSandboxClock");
  expectAnswer(result, 200);
  return { now: new Date(result.body.now), advanced: result.body.advanced_seconds };
}

const advance = (context: CheckContext, body: unknown) => context.api.call("advanceSandboxClock", { body });

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

async function setStatus(context: CheckContext, domainId: string, status: string) {
  const result = await context.api.call("setSandboxDomainStatus", { path: { domain_id: domainId }, body: { status } });
  expectAnswer(result, 200, { id: domainId, status }, `setting status ${status}`);
  return result.body;
}

export default defineChecks([
  {
    id: "sandbox.register-domain-charges-the-registration",
    title:
      "registering a domain for a user charges years times the TLD's registration price to its total_spent and adds it to domain_count",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      needsDomainDetails(context);
      const catalogue = await tldCatalogue(context);
      const user = await newUser(context);
      let count = 0;
      for (const [tld, years] of [
        ["com", 3],
        ["com", 1],
      ] as const) {
        const prices = catalogue.get(tld)!;
        const spent = await totalSpent(context, user);
        const domain = await newDomain(context, user, { tld, years });
        count++;
        expect(domain).toMatchObject({ user_identifier: user, status: "active" });
        expect({ years, charged: (await totalSpent(context, user)) - spent }).toEqual({
          years,
          charged: years * cents(prices.registration_price),
        });
        const read = await context.api.call("getUser", { path: { user_identifier: user } });
        expectAnswer(read, 200, { domain_count: count });
      }
    },
  },
  {
    id: "sandbox.register-refuses-what-cannot-be-registered",
    title:
      "registering for an unknown user gives 404 not_found; a name already registered gives 409 conflict (domain_name, not_available); nothing is charged",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      const register = (body: unknown) => context.api.call("createSandboxDomain", { body });
      expectCoded(
        await register({ user_identifier: context.unique("nobody").replace(/-/g, "_"), domain_name: freeName(context) }),
        404,
        "not_found",
      );
      const user = await newUser(context);
      const domain = await newDomain(context, user);
      const other = await newUser(context);
      const spent = await totalSpent(context, other);
      expectCoded(
        await register({ user_identifier: other, domain_name: domain.name }),
        409,
        "conflict",
        "domain_name",
        "not_available",
        "a name already registered",
      );
      expect(await totalSpent(context, other)).toBe(spent);
      expect((await context.api.call("listUserDomains", { path: { user_identifier: other } })).body.domains).toEqual([]);
    },
  },
  {
    id: "sandbox.set-status-moves-status-and-dates",
    title:
      "setting a status reads back and is announced (domain.expired or domain.updated); expired moves expires_at to now, active from expired one year ahead; the same status changes nothing",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, "setSandboxDomainStatus", "listEvents"],
    async run(context) {
      needsDomainDetails(context);
      const user = await newUser(context);
      const domain = await newDomain(context, user, { years: 2 });
      for (const status of ["pending", "suspended", "active"]) {
        const set = await setStatus(context, domain.id, status);
        expect({ status, expires_at: set.expires_at }).toEqual({ status, expires_at: domain.expires_at });
        expect((await getDomain(context, domain.id)).status).toBe(status);
      }
      const before = await sandboxNow(context);
      const expired = await setStatus(context, domain.id, "expired");
      const after = await sandboxNow(context);
      expectWithin(expired.expires_at, before, after, "expires_at of a domain set expired");
      const again = await setStatus(context, domain.id, "expired");
      expect(again.expires_at).toBe(expired.expires_at);
      expect(await getDomain(context, domain.id)).toMatchObject({ status: "expired", expires_at: expired.expires_at });
      const beforeActive = await sandboxNow(context);
      const active = await setStatus(context, domain.id, "active");
      const afterActive = await sandboxNow(context);
      expectWithin(
        active.expires_at,
        new Date(new Date(beforeActive).setUTCFullYear(beforeActive.getUTCFullYear() + 1) - 1000),
        new Date(new Date(afterActive).setUTCFullYear(afterActive.getUTCFullYear() + 1)),
        "expires_at of an expired domain set active",
      );
      // Each change is announced once: domain.expired when it expired, domain.updated otherwise.
      expect({
        "domain.updated": await announcedStatuses(context, domain.id, "domain.updated"),
        "domain.expired": await announcedStatuses(context, domain.id, "domain.expired"),
      }).toEqual({ "domain.updated": ["pending", "suspended", "active", "active"], "domain.expired": ["expired"] });
      expectCoded(
        await context.api.call("setSandboxDomainStatus", {
          path: { domain_id: context.unique("dom_missing") },
          body: { status: "active" },
        }),
        404,
        "not_found",
      );
    },
  },
  {
    id: "sandbox.clock-moves-forward-as-asked",
    title: "advancing by seconds or to a time moves the partner's clock by exactly that: advanced_seconds and now agree",
    needs: ["state", "sandbox"],
    operations: SANDBOX_CLOCK,
    async run(context) {
      const start = await clock(context);
      const bySeconds = await advance(context, { seconds: SMALL_ADVANCE_SECONDS });
      expectAnswer(bySeconds, 200, { advanced_seconds: start.advanced + SMALL_ADVANCE_SECONDS });
      const read = await clock(context);
      expect(read.advanced).toBe(start.advanced + SMALL_ADVANCE_SECONDS);
      expect(read.now.getTime()).toBeGreaterThanOrEqual(start.now.getTime() + SMALL_ADVANCE_SECONDS * 1000);
      // `now` is written to the second: a second more keeps the target at least SMALL_ADVANCE_SECONDS ahead of the real sandbox time.
      const target = new Date(read.now.getTime() + (1 + SMALL_ADVANCE_SECONDS) * 1000);
      const toTime = await advance(context, { to: iso(target) });
      expectAnswer(toTime, 200);
      expectWithin(toTime.body.now, target, new Date(target.getTime() + 60_000), "now after advancing to a time");
      const after = await clock(context);
      expect(after.now.getTime()).toBeGreaterThanOrEqual(target.getTime());
      expect(after.advanced).toBeGreaterThanOrEqual(read.advanced + SMALL_ADVANCE_SECONDS);
    },
  },
  {
    id: "sandbox.clock-never-moves-back",
    title:
      "advancing to a time not ahead gives 422 validation_error invalid_value; seconds below 1 give 422 out_of_range; both fields give 400; the clock stays",
    needs: ["state", "sandbox"],
    operations: SANDBOX_CLOCK,
    async run(context) {
      const start = await clock(context);
      for (const to of [new Date(start.now.getTime() - 3_600_000), new Date(start.now.getTime() - 1000)])
        expectCoded(
          await advance(context, { to: iso(to) }),
          422,
          "validation_error",
          "to",
          "invalid_value",
          `advancing to ${iso(to)}, in the past`,
        );
      for (const seconds of [0, -60])
        expectCoded(
          await advance(context, { seconds }),
          422,
          "validation_error",
          "seconds",
          "out_of_range",
          `advancing by ${seconds} seconds`,
        );
      expectCoded(
        await advance(context, { seconds: 60, to: iso(new Date(start.now.getTime() + 3_600_000)) }),
        400,
        "validation_error",
        undefined,
        undefined,
        "both seconds and to",
      );
      expectCoded(await advance(context, {}), 400, "validation_error", undefined, undefined, "neither seconds nor to");
      const after = await clock(context);
      expect(after.advanced).toBe(start.advanced);
    },
  },
  {
    id: "sandbox.clock-advance-is-bounded",
    title: "an advance of more than 315,576,000 seconds, as seconds or as to, gives 422 validation_error out_of_range and moves nothing",
    needs: ["state", "sandbox"],
    operations: SANDBOX_CLOCK,
    async run(context) {
      const start = await clock(context);
      expectCoded(
        await advance(context, { seconds: MAX_ADVANCE_SECONDS + 1 }),
        422,
        "validation_error",
        "seconds",
        "out_of_range",
        "one second past the bound",
      );
      const farTo = new Date(Math.ceil(start.now.getTime() / 1000) * 1000 + (MAX_ADVANCE_SECONDS + 3600) * 1000);
      expectCoded(
        await advance(context, { to: iso(farTo) }),
        422,
        "validation_error",
        "to",
        "out_of_range",
        "a time an hour past the bound",
      );
      expect((await clock(context)).advanced).toBe(start.advanced);
    },
  },
  {
    id: "sandbox.helpers-count-against-no-bucket",
    title: "the sandbox helpers report the rate-limit headers but spend no request: X-RateLimit-Remaining never falls across them",
    needs: ["state", "sandbox"],
    operations: SANDBOX_CLOCK,
    async run(context) {
      const remaining: number[] = [];
      for (let n = 0; n < 4; n++) {
        const result = await context.api.call("getSandboxClock");
        expectAnswer(result, 200);
        const header = result.headers.get("X-RateLimit-Remaining");
        if (header === null || !/^\d+$/.test(header))
          throw new Error(`${result.label} answered X-RateLimit-Remaining ${JSON.stringify(header)}, expected a whole number`);
        remaining.push(Number(header));
      }
      // A window that starts between two calls can only raise the count; a counted call lowers it.
      for (let n = 1; n < remaining.length; n++)
        if (remaining[n]! < remaining[n - 1]!)
          throw new Error(`X-RateLimit-Remaining fell across sandbox clock reads (${remaining.join(", ")}): the helpers are counted`);
    },
  },
  {
    id: "sandbox.reset-removes-the-partners-data",
    title: "a reset deletes the partner's users, domains and transfers and sets its clock back; another partner's data stays",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, "resetSandbox"],
    destructive: true,
    async run(context) {
      const user = await newUser(context);
      const domain = await newDomain(context, user);
      const transfer = await context.api.call("initiateTransfer", {
        body: { domain_name: freeName(context, "com", "h2transfer"), user_identifier: user, auth_code: "Xk8#pL2q!Rm9" },
      });
      expectAnswer(transfer, 201);
      expectAnswer(await context.api.call("advanceSandboxClock", { body: { seconds: 3600 } }), 200);
      let otherUser: string | null = null;
      if (context.target.secondKey) {
        otherUser = context.unique("h2other").replace(/-/g, "_");
        expectAnswer(
          await context.api.call("createUserSession", { body: { user_identifier: otherUser }, key: context.target.secondKey }),
          201,
        );
      }
      const reset = await context.api.call("resetSandbox", {});
      expectAnswer(reset, 204);
      expectCoded(
        await context.api.call("getUser", { path: { user_identifier: user } }),
        404,
        "not_found",
        undefined,
        undefined,
        "the user after a reset",
      );
      expectCoded(
        await context.api.call("getDomain", { path: { domain_id: domain.id } }),
        404,
        "not_found",
        undefined,
        undefined,
        "the domain after a reset",
      );
      expectCoded(
        await context.api.call("getTransfer", { path: { transfer_id: transfer.body.transfer_id } }),
        404,
        "not_found",
        undefined,
        undefined,
        "the transfer after a reset",
      );
      expect((await clock(context)).advanced).toBe(0);
      const availability = await context.api.call("checkAvailability", { path: { domain_name: domain.name } });
      expectAnswer(availability, 200, { available: true }, "the name of a domain the reset deleted");
      if (otherUser) {
        const kept = await context.api.call("getUser", { path: { user_identifier: otherUser }, key: context.target.secondKey });
        expectAnswer(kept, 200, { user_identifier: otherUser }, "another partner's user after the reset");
      }
    },
  },
]);
