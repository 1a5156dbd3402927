/**
 * Transfers: initiation (its price and its refusals), the status read, and the state machine walked
 * to each end state on the sandbox clock, with the magic auth codes choosing the path.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import {
  advanceTo,
  amount,
  anotherOpenTld,
  cents,
  DAY_MS,
  domainsOf,
  expectWithin,
  expectYearsLater,
  freeName,
  getDomain,
  HOUR_MS,
  needsDomainDetails,
  newDomain,
  newUser,
  SANDBOX_CLOCK,
  SANDBOX_DOMAINS,
  sandboxNow,
  tldCatalogue,
} from "./domains-support.js";
import { expectAnswer, expectCoded } from "./expectations.js";

/** An auth code the sandbox gives no special path: the registry's usual one. */
const GOOD_AUTH_CODE = "Xk8#pL2q!Rm9";
const SECOND_MS = 1000;
/** How long before a step the walk looks: the sandbox clock keeps running while the kit reads, and a slow or paced read must not cross the step. */
const PROBE_BEFORE_MS = 60 * SECOND_MS;

interface Step {
  status: string;
  /** After the start. */
  after: number;
}

/** The paths of the Sandbox tag's magic values, each ending in a final state. */
const PATHS: Record<string, Step[]> = {
  [GOOD_AUTH_CODE]: [
    { status: "pending", after: 0 },
    { status: "in_progress", after: HOUR_MS },
    { status: "completed", after: 7 * DAY_MS },
  ],
  "sandbox-fail": [
    { status: "pending", after: 0 },
    { status: "in_progress", after: HOUR_MS },
    { status: "failed", after: DAY_MS },
  ],
  "sandbox-cancel": [
    { status: "pending", after: 0 },
    { status: "cancelled", after: HOUR_MS },
  ],
  "sandbox-cancel-in-progress": [
    { status: "pending", after: 0 },
    { status: "in_progress", after: HOUR_MS },
    { status: "cancelled", after: 2 * DAY_MS },
  ],
};

const initiate = (context: CheckContext, body: Record<string, unknown>) => context.api.call("initiateTransfer", { body });

async function readTransfer(context: CheckContext, transferId: string): Promise<any> {
  const result = await context.api.call("getTransfer", { path: { transfer_id: transferId } });
  expectAnswer(result, 200, { transfer_id: transferId });
  return result.body;
}

/** Starts a transfer of a fresh name for a fresh user; answers the initiation and the status read. */
async function startTransfer(context: CheckContext, authCode: string, extend = false) {
  const user = await newUser(context);
  const name = freeName(context, "com", "h2transfer");
  const before = await sandboxNow(context);
  const result = await initiate(context, { domain_name: name, user_identifier: user, auth_code: authCode, extend_registration: extend });
  const after = await sandboxNow(context);
  expectAnswer(result, 201, { domain_name: name, status: "pending" });
  const status = await readTransfer(context, result.body.transfer_id);
  expectWithin(status.started_at, before, after, "started_at of a transfer started just now");
  return { user, name, initiation: result.body, status };
}

/** Fails unless the read shows `status`, with `history` listing each status reached so far at its due time. */
function expectAt(read: any, path: Step[], reached: number, moment: string): void {
  const start = new Date(read.started_at).getTime();
  const expected = path.slice(0, reached + 1);
  const final = ["completed", "failed", "cancelled"].includes(expected.at(-1)!.status);
  const got = {
    moment,
    status: read.status,
    completed_at: read.completed_at,
    history: (read.history ?? []).map((entry: any) => ({ status: entry.status, at: new Date(entry.at).getTime() - start })),
  };
  expect(got).toEqual({
    moment,
    status: expected.at(-1)!.status,
    completed_at: final ? new Date(start + expected.at(-1)!.after).toISOString().replace(/\.\d{3}Z$/, "Z") : null,
    history: expected.map((step) => ({ status: step.status, at: step.after })),
  });
  if (read.status !== "completed") expect({ moment, domain_id: read.domain_id }).toEqual({ moment, domain_id: null });
}

/**
 * Walks the transfer along its path: a minute before each step it has not moved, a second after it
 * has. Timestamps are written to the second and a step falls due at the start (to the millisecond)
 * plus its delay, so "a second after" the written start plus the delay is past it. A probe before a
 * step is skipped when another check's walk has already taken the clock beyond it.
 */
async function walk(context: CheckContext, transferId: string, startedAt: string, path: Step[]): Promise<any> {
  const start = new Date(startedAt).getTime();
  let read: any;
  for (let index = 1; index < path.length; index++) {
    const step = path[index]!;
    if ((await sandboxNow(context)).getTime() < start + step.after - PROBE_BEFORE_MS) {
      await advanceTo(context, new Date(start + step.after - PROBE_BEFORE_MS));
      expectAt(await readTransfer(context, transferId), path, index - 1, `a minute before ${step.status}`);
    }
    await advancePast(context, new Date(start + step.after + SECOND_MS));
    read = await readTransfer(context, transferId);
    expectAt(read, path, index, `at ${step.status}`);
  }
  return read;
}

/** Moves the clock to `when` unless it is there already. */
async function advancePast(context: CheckContext, when: Date): Promise<void> {
  if ((await sandboxNow(context)).getTime() < when.getTime()) await advanceTo(context, when);
}

/** The transfer's `transfer.status_changed` events, oldest first, as the events API lists them. */
async function statusEvents(context: CheckContext, transferId: string): Promise<any[]> {
  const result = await context.api.call("listEvents", { query: { type: "transfer.status_changed", limit: 100 } });
  expectAnswer(result, 200);
  return (result.body.events as any[]).filter((event) => event.data?.transfer_id === transferId).reverse();
}

/** What ends in failure or cancellation leaves nothing behind: no domain, and the name can be transferred again. */
async function expectNothingLeft(context: CheckContext, user: string, name: string, status: string): Promise<void> {
  expect({ status, domains: (await domainsOf(context, user)).domains.map((domain: any) => domain.name) }).toEqual({ status, domains: [] });
  const again = await initiate(context, { domain_name: name, user_identifier: user, auth_code: GOOD_AUTH_CODE });
  expectAnswer(again, 201, { status: "pending" }, `a new transfer of a name whose transfer is ${status}`);
}

const CLOCK_WALK = {
  needs: ["state", "sandbox"] as const,
  operations: [...SANDBOX_CLOCK, "listEvents"],
  // Moves the partner's sandbox clock days ahead: sessions and transfers of other checks fall due.
  destructive: true,
};

export default defineChecks([
  {
    id: "transfers.initiation-is-pending-and-priced",
    title:
      "a transfer starts pending; cost is the TLD's transfer price (plus a year's renewal with extend_registration), estimated_completion 7 days on",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_CLOCK],
    async run(context) {
      const catalogue = await tldCatalogue(context);
      const other = await anotherOpenTld(context, (entry) => entry.transfer_price);
      for (const [tld, extend] of [
        ["com", false],
        ["com", true],
        [other.tld, true],
      ] as const) {
        const prices = catalogue.get(tld) ?? context.notApplicable(`the TLD list has no .${tld}`);
        const user = await newUser(context);
        const name = freeName(context, tld, "h2transfer");
        const result = await initiate(context, {
          domain_name: name,
          user_identifier: user,
          auth_code: GOOD_AUTH_CODE,
          extend_registration: extend,
        });
        expectAnswer(result, 201, { domain_name: name, status: "pending" });
        const cost = cents(prices.transfer_price) + (extend ? cents(prices.renewal_price) : 0);
        expect({ tld, extend, cost: result.body.cost, currency: result.body.currency }).toEqual({
          tld,
          extend,
          cost: amount(cost),
          currency: prices.currency,
        });
        const read = await readTransfer(context, result.body.transfer_id);
        expect(read).toMatchObject({ domain_name: name, status: "pending", completed_at: null, domain_id: null });
        expect(read.history?.map((entry: any) => entry.status)).toEqual(["pending"]);
        expect(new Date(result.body.estimated_completion).getTime() - new Date(read.started_at).getTime()).toBe(7 * DAY_MS);
      }
      // A name registered at another registrar (the sandbox's taken- labels) is what a transfer brings in.
      const takenElsewhere = `taken-${context.unique("h2transfer")}.com`;
      const taken = await initiate(context, {
        domain_name: takenElsewhere,
        user_identifier: await newUser(context),
        auth_code: GOOD_AUTH_CODE,
      });
      expectAnswer(taken, 201, { domain_name: takenElsewhere, status: "pending" }, "transferring a name registered elsewhere");
    },
  },
  {
    id: "transfers.unknown-user-not-found",
    title: "a transfer for a user the partner does not have gives 404 not_found",
    needs: ["state"],
    async run(context) {
      const result = await initiate(context, {
        domain_name: freeName(context, "com", "h2transfer"),
        user_identifier: context.unique("nobody").replace(/-/g, "_"),
        auth_code: GOOD_AUTH_CODE,
      });
      expectCoded(result, 404, "not_found");
    },
  },
  {
    id: "transfers.domain-already-here-refused",
    title: "transferring a domain registered through the service gives 409 conflict",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      const user = await newUser(context);
      const domain = await newDomain(context, user);
      const other = await newUser(context);
      for (const [who, spelled] of [
        [user, domain.name],
        [other, domain.name.toUpperCase()],
      ] as const)
        expectCoded(
          await initiate(context, { domain_name: spelled, user_identifier: who, auth_code: GOOD_AUTH_CODE }),
          409,
          "conflict",
          undefined,
          undefined,
          `transferring ${spelled}, already registered here`,
        );
    },
  },
  {
    id: "transfers.second-transfer-of-a-name-refused",
    title: "a transfer of a name already pending or in progress gives 409 conflict",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_CLOCK],
    async run(context) {
      const { user, name } = await startTransfer(context, GOOD_AUTH_CODE);
      const other = await newUser(context);
      for (const who of [user, other])
        expectCoded(
          await initiate(context, { domain_name: name, user_identifier: who, auth_code: GOOD_AUTH_CODE }),
          409,
          "conflict",
          undefined,
          undefined,
          "a second transfer of a name being transferred",
        );
    },
  },
  {
    id: "transfers.invalid-name-or-unsold-tld-refused",
    title: "a transfer of an invalid name gives 422 invalid_format; of a TLD the service does not sell, 422",
    needs: ["state"],
    async run(context) {
      const user = await newUser(context);
      for (const name of ["-leading-hyphen.com", "😀.com", "xn--e28h.com", `${"a".repeat(64)}.com`])
        expectCoded(
          await initiate(context, { domain_name: name, user_identifier: user, auth_code: GOOD_AUTH_CODE }),
          422,
          "validation_error",
          "domain_name",
          "invalid_format",
          `transferring ${name}`,
        );
      const catalogue = await tldCatalogue(context);
      const unsold = ["zz", "qq", "invalidtld"].find((tld) => !catalogue.has(tld))!;
      expectCoded(
        await initiate(context, {
          domain_name: `${context.unique("h2transfer")}.${unsold}`,
          user_identifier: user,
          auth_code: GOOD_AUTH_CODE,
        }),
        422,
        "validation_error",
        "domain_name",
        undefined,
        `transferring a .${unsold} name`,
      );
    },
  },
  {
    id: "transfers.unknown-transfer-not-found",
    title: "reading a transfer that does not exist gives 404 not_found",
    needs: ["state"],
    async run(context) {
      expectCoded(await context.api.call("getTransfer", { path: { transfer_id: context.unique("trf_missing") } }), 404, "not_found");
    },
  },
  {
    ...CLOCK_WALK,
    id: "transfers.walk-to-completed",
    title: "a transfer goes pending, in_progress at 1 hour, completed at estimated_completion; its domain then belongs to the user",
    needs: [...CLOCK_WALK.needs],
    async run(context) {
      needsDomainDetails(context);
      const plain = await startTransfer(context, GOOD_AUTH_CODE, false);
      const extended = await startTransfer(context, GOOD_AUTH_CODE, true);
      const path = PATHS[GOOD_AUTH_CODE]!;
      expect(new Date(plain.initiation.estimated_completion).getTime()).toBe(
        new Date(plain.status.started_at).getTime() + path.at(-1)!.after,
      );
      const read = await walk(context, plain.initiation.transfer_id, plain.status.started_at, path);
      await advancePast(context, new Date(new Date(extended.initiation.estimated_completion).getTime() + SECOND_MS));
      for (const [transfer, years] of [
        [{ ...plain, read }, 1],
        [{ ...extended, read: await readTransfer(context, extended.initiation.transfer_id) }, 2],
      ] as const) {
        expect(transfer.read.status).toBe("completed");
        if (typeof transfer.read.domain_id !== "string")
          throw new Error(`a completed transfer has domain_id ${JSON.stringify(transfer.read.domain_id)}`);
        const domain = await getDomain(context, transfer.read.domain_id);
        expect(domain).toMatchObject({
          id: transfer.read.domain_id,
          name: transfer.name,
          user_identifier: transfer.user,
          status: "active",
        });
        expectYearsLater(
          domain.expires_at,
          transfer.read.completed_at,
          years,
          `expires_at of a transferred domain (extend_registration ${years === 2})`,
        );
        expect((await domainsOf(context, transfer.user)).domains.map((item: any) => item.id)).toEqual([transfer.read.domain_id]);
        const availability = await context.api.call("checkAvailability", { path: { domain_name: transfer.name } });
        expectAnswer(availability, 200, { available: false }, "the availability of a name transferred in");
      }
      const events = await statusEvents(context, plain.initiation.transfer_id);
      expect(events.map((event) => [event.previous_status, event.data.status])).toEqual([
        ["pending", "in_progress"],
        ["in_progress", "completed"],
      ]);
      expect(events.at(-1)!.data).toMatchObject({ domain_id: read.domain_id, completed_at: read.completed_at });
    },
  },
  {
    ...CLOCK_WALK,
    id: "transfers.walk-to-failed",
    title: "with auth code sandbox-fail the registry refuses it: in_progress at 1 hour, failed at 1 day, nothing left behind",
    needs: [...CLOCK_WALK.needs],
    async run(context) {
      const { user, name, initiation, status } = await startTransfer(context, "sandbox-fail");
      await walk(context, initiation.transfer_id, status.started_at, PATHS["sandbox-fail"]!);
      const events = await statusEvents(context, initiation.transfer_id);
      expect(events.map((event) => [event.previous_status, event.data.status])).toEqual([
        ["pending", "in_progress"],
        ["in_progress", "failed"],
      ]);
      await expectNothingLeft(context, user, name, "failed");
    },
  },
  {
    ...CLOCK_WALK,
    id: "transfers.walk-to-cancelled",
    title: "sandbox-cancel is cancelled at 1 hour from pending; sandbox-cancel-in-progress at 2 days from in_progress; nothing left behind",
    needs: [...CLOCK_WALK.needs],
    async run(context) {
      const early = await startTransfer(context, "sandbox-cancel");
      const late = await startTransfer(context, "sandbox-cancel-in-progress");
      await walk(context, early.initiation.transfer_id, early.status.started_at, PATHS["sandbox-cancel"]!);
      await walk(context, late.initiation.transfer_id, late.status.started_at, PATHS["sandbox-cancel-in-progress"]!);
      expect(
        (await statusEvents(context, early.initiation.transfer_id)).map((event) => [event.previous_status, event.data.status]),
      ).toEqual([["pending", "cancelled"]]);
      expect((await statusEvents(context, late.initiation.transfer_id)).map((event) => [event.previous_status, event.data.status])).toEqual(
        [
          ["pending", "in_progress"],
          ["in_progress", "cancelled"],
        ],
      );
      await expectNothingLeft(context, early.user, early.name, "cancelled");
      await expectNothingLeft(context, late.user, late.name, "cancelled");
    },
  },
]);
