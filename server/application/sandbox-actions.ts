/** What a partner does with its sandbox, for both front doors (the API and the dashboard): move its clock, reset its data. */
import { sandboxMaxAdvanceSeconds } from "../../generated/operations.js";
import { timestamp } from "../platform/clock.js";
import type { Services } from "./context.js";
import { apiErrors } from "../platform/errors.js";
import { applyDueChanges, type Change } from "./due-changes.js";
import { inTransaction } from "./transactions.js";

export interface SandboxClockView {
  now: string;
  advanced_seconds: number;
}

export function clockView(services: Services, partnerId: string): SandboxClockView {
  return { now: timestamp(services.clock.now()), advanced_seconds: Math.floor(services.clocks.offsetOf(partnerId) / 1000) };
}

/**
 * Moves the partner's clock to `target` and carries out what fell due on the way, in order.
 * `field` names the input a refusal is about. `services` are the partner's (its clock), outside any transaction.
 */
export async function advanceClockTo(
  services: Services,
  partnerId: string,
  target: Date,
  field: string,
): Promise<SandboxClockView & { changes: Change[] }> {
  const now = services.clock.now();
  if (target <= now)
    throw apiErrors.invalidValue(
      field,
      "invalid_value",
      `to must be later than the sandbox time ${timestamp(now)}; the clock never moves back`,
    );
  return advanceClock(services, partnerId, target.getTime() - now.getTime(), field);
}

/**
 * Moves the partner's clock ahead by whole `seconds`, exactly: not to a target worked out from a
 * reading of the clock, which loses the milliseconds that pass before the move.
 */
export function advanceClockBy(
  services: Services,
  partnerId: string,
  seconds: number,
  field: string,
): Promise<SandboxClockView & { changes: Change[] }> {
  return advanceClock(services, partnerId, seconds * 1000, field);
}

async function advanceClock(
  services: Services,
  partnerId: string,
  milliseconds: number,
  field: string,
): Promise<SandboxClockView & { changes: Change[] }> {
  // The schema's bound of `seconds` bounds every way of moving: one rule.
  if (milliseconds > sandboxMaxAdvanceSeconds * 1000) {
    throw apiErrors.invalidValue(
      field,
      "out_of_range",
      `The clock moves at most ${sandboxMaxAdvanceSeconds} seconds (ten years of 365.25 days) per call`,
    );
  }
  await services.clocks.advance(partnerId, milliseconds);
  const changes = await applyDueChanges(services, partnerId);
  return { ...clockView(services, partnerId), changes };
}

/**
 * Deletes every user of the partner with all that is theirs, and sets its clock back. Its rate-limit
 * counters stay: the reset is exempt from the limits, so clearing them would free a window's worth of
 * requests per reset (docs/sandbox.md, "Rate limits and the clock").
 */
export async function resetSandbox(services: Services, partnerId: string): Promise<void> {
  await inTransaction(services, (tx) => tx.store.deletePartnerData(partnerId));
  await services.clocks.reset(partnerId);
}
