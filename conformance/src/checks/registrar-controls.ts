/** Registrar controls (additions): the transfer lock, the transfer-out code's 60 days, outbound transfers and their events. */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { advanceTo, DAY_MS, getDomain, newDomain, newUser, SANDBOX_CLOCK, SANDBOX_DOMAINS } from "./domains-support.js";
import { eventsOfType } from "./events-support.js";
import { expectAnswer, expectCoded } from "./expectations.js";

const WAITING_PERIOD_MS = 60 * DAY_MS;
const AUTO_APPROVE_MS = 5 * DAY_MS;
const CONTROLS = ["getTransferAuthCode", "updateDomain", "getDomain"];
const OUTBOUND = ["requestSandboxOutboundTransfer", "getOutboundTransfer", "answerOutboundTransfer", "listEvents"];
/** Answers give whole seconds: a second more is surely past a time the server holds to the millisecond. */
const SECOND_MS = 1000;
const instant = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");

const authCode = (context: CheckContext, domainId: string) => context.api.call("getTransferAuthCode", { path: { domain_id: domainId } });
const setLock = (context: CheckContext, domainId: string, transfer_lock: boolean) =>
  context.api.call("updateDomain", { path: { domain_id: domainId }, body: { transfer_lock } });
const requestOut = (context: CheckContext, domainId: string, auth_code: string, gaining_registrar?: string) =>
  context.api.call("requestSandboxOutboundTransfer", {
    path: { domain_id: domainId },
    body: gaining_registrar === undefined ? { auth_code } : { auth_code, gaining_registrar },
  });

/** A new domain past its 60 days (the clock moved to when its code is available), unlocked; answers it with its code. */
async function domainReadyToLeave(context: CheckContext, user: string): Promise<{ id: string; code: string }> {
  const domain = await newDomain(context, user);
  await advanceTo(context, new Date(new Date(domain.purchased_at).getTime() + WAITING_PERIOD_MS + SECOND_MS));
  expectAnswer(await setLock(context, domain.id, false), 200, { transfer_lock: false }, "unlocking");
  const code = await authCode(context, domain.id);
  expectAnswer(code, 200, undefined, "the code after 60 days");
  return { id: domain.id, code: code.body.auth_code };
}

/** The types of the outbound-transfer events of one transfer, oldest first, as the events API lists them. */
async function outboundEvents(context: CheckContext, transferId: string): Promise<string[]> {
  const types = ["requested", "completed", "rejected", "cancelled"].map((step) => `domain.transfer_out.${step}`);
  const events = (await Promise.all(types.map((type) => eventsOfType(context, type, 100, 2)))).flat();
  return events
    .filter((event) => event.data?.id === transferId)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || types.indexOf(a.type) - types.indexOf(b.type))
    .map((event) => event.type);
}

export default defineChecks([
  {
    id: "registrar-controls.lock-on-by-default-and-toggled",
    title: "a new domain is locked (detail and list); transfer_lock turns off and on through PUT and reads back",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...CONTROLS, "listUserDomains"],
    async run(context) {
      const user = await newUser(context, "rc_lock");
      const domain = await newDomain(context, user);
      expect({ created: domain.transfer_lock, read: (await getDomain(context, domain.id)).transfer_lock }).toEqual({
        created: true,
        read: true,
      });
      const list = await context.api.call("listUserDomains", { path: { user_identifier: user } });
      expectAnswer(list, 200);
      expect({
        listed: list.body.domains.find((item: { id: string; transfer_lock?: boolean }) => item.id === domain.id)?.transfer_lock,
      }).toEqual({ listed: true });
      for (const lock of [false, true, false]) {
        expectAnswer(await setLock(context, domain.id, lock), 200, { transfer_lock: lock }, `transfer_lock ${lock}`);
        expect({ after: lock, read: (await getDomain(context, domain.id)).transfer_lock }).toEqual({ after: lock, read: lock });
      }
    },
  },
  {
    id: "registrar-controls.code-refused-for-sixty-days",
    title:
      "the auth code is refused (409 transfer_not_yet_allowed, available_at) for 60 days after registration, then answered, the same on every read",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...CONTROLS],
    async run(context) {
      const user = await newUser(context, "rc_code");
      const domain = await newDomain(context, user);
      const availableAt = new Date(new Date(domain.purchased_at).getTime() + WAITING_PERIOD_MS);
      const early = await authCode(context, domain.id);
      expectCoded(early, 409, "conflict", undefined, "transfer_not_yet_allowed", "on the day of registration");
      expect({ available_at: early.body.details.available_at }).toEqual({ available_at: instant(availableAt) });
      await advanceTo(context, new Date(availableAt.getTime() - 60_000));
      expectCoded(await authCode(context, domain.id), 409, "conflict", undefined, "transfer_not_yet_allowed", "a minute before day 60");
      await advanceTo(context, new Date(availableAt.getTime() + SECOND_MS));
      const first = await authCode(context, domain.id);
      expectAnswer(first, 200, { domain_id: domain.id, domain_name: domain.name, transfer_lock: true }, "on day 60, locked");
      expect(typeof first.body.auth_code === "string" && first.body.auth_code.length >= 16).toBe(true);
      expectAnswer(await setLock(context, domain.id, false), 200);
      expectAnswer(
        await authCode(context, domain.id),
        200,
        { auth_code: first.body.auth_code, transfer_lock: false },
        "read again, unlocked",
      );
    },
  },
  {
    id: "registrar-controls.locked-or-wrong-code-refused",
    title: "an outbound transfer of a locked domain gives 409 transfer_locked, with a wrong code 422 auth_code; no event",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...CONTROLS, ...OUTBOUND],
    async run(context) {
      const user = await newUser(context, "rc_refused");
      const { id, code } = await domainReadyToLeave(context, user);
      expectCoded(await requestOut(context, id, `${code}x`), 422, "validation_error", "auth_code", undefined, "a wrong code");
      expectAnswer(await setLock(context, id, true), 200);
      expectCoded(await requestOut(context, id, code), 409, "conflict", "transfer_lock", "transfer_locked", "the right code, locked");
      expectCoded(
        await context.api.call("getOutboundTransfer", { path: { domain_id: id } }),
        404,
        "not_found",
        undefined,
        undefined,
        "no transfer was made",
      );
      const requested = await eventsOfType(context, "domain.transfer_out.requested", 100, 2);
      expect({ requested_for_domain: requested.filter((event) => event.data?.domain_id === id).length }).toEqual({
        requested_for_domain: 0,
      });
    },
  },
  {
    id: "registrar-controls.outbound-approve-and-reject",
    title: "a requested outbound transfer is pending; reject keeps the domain, approve removes it; one event per state",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...CONTROLS, ...OUTBOUND],
    async run(context) {
      const user = await newUser(context, "rc_answer");
      const { id, code } = await domainReadyToLeave(context, user);
      const rejected = await requestOut(context, id, code, "Example Registrar Inc.");
      expectAnswer(rejected, 201, { domain_id: id, status: "pending", completed_at: null }, "the request");
      const answer = (decision: string) => context.api.call("answerOutboundTransfer", { path: { domain_id: id }, body: { decision } });
      expectAnswer(await answer("reject"), 200, { id: rejected.body.id, status: "rejected" }, "rejecting");
      expectAnswer(await context.api.call("getOutboundTransfer", { path: { domain_id: id } }), 200, { status: "rejected" });
      expectAnswer(await context.api.call("getDomain", { path: { domain_id: id } }), 200, undefined, "the domain after a rejection");
      expect(await outboundEvents(context, rejected.body.id)).toEqual(["domain.transfer_out.requested", "domain.transfer_out.rejected"]);
      const approved = await requestOut(context, id, code);
      expectAnswer(approved, 201, { status: "pending" }, "a second request");
      expectAnswer(await answer("approve"), 200, { id: approved.body.id, status: "completed" }, "approving");
      expectCoded(
        await context.api.call("getDomain", { path: { domain_id: id } }),
        404,
        "not_found",
        undefined,
        undefined,
        "the domain after it left",
      );
      expect(await outboundEvents(context, approved.body.id)).toEqual(["domain.transfer_out.requested", "domain.transfer_out.completed"]);
    },
  },
  {
    id: "registrar-controls.outbound-times-out-after-five-days",
    title: "an unanswered outbound transfer completes at auto_approve_at (5 days), as a clock advance's change; the domain is gone",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...CONTROLS, ...OUTBOUND],
    async run(context) {
      const user = await newUser(context, "rc_timeout");
      const { id, code } = await domainReadyToLeave(context, user);
      const requested = await requestOut(context, id, code);
      expectAnswer(requested, 201);
      const requestedAt = new Date(requested.body.requested_at).getTime();
      expect({ auto_approve_at: requested.body.auto_approve_at }).toEqual({
        auto_approve_at: instant(new Date(requestedAt + AUTO_APPROVE_MS)),
      });
      const before = await advanceTo(context, new Date(requestedAt + AUTO_APPROVE_MS - 60_000));
      expect({ before: before.changes.filter((change: { id: string }) => change.id === requested.body.id) }).toEqual({ before: [] });
      expectAnswer(
        await context.api.call("getOutboundTransfer", { path: { domain_id: id } }),
        200,
        { status: "pending" },
        "a minute before",
      );
      const after = await advanceTo(context, new Date(requestedAt + AUTO_APPROVE_MS + SECOND_MS));
      expect({ after: after.changes.filter((change: { id: string }) => change.id === requested.body.id) }).toEqual({
        after: [{ object: "transfer", id: requested.body.id, from: "pending", to: "completed", at: requested.body.auto_approve_at }],
      });
      expectCoded(
        await context.api.call("getDomain", { path: { domain_id: id } }),
        404,
        "not_found",
        undefined,
        undefined,
        "after the timeout",
      );
      expect(await outboundEvents(context, requested.body.id)).toEqual(["domain.transfer_out.requested", "domain.transfer_out.completed"]);
    },
  },
]);
