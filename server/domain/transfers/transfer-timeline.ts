/**
 * When a transfer reaches each of its states. The registry's usual path is the default; in the
 * sandbox, magic auth codes choose the other paths (the Sandbox tag of the spec lists them).
 */
import { DAY, HOUR } from "../../platform/clock.js";
import type { Environment } from "../../../generated/deployment.js";
import type { TransferRow } from "./transfer-store.js";
import type { TransferStatus } from "./transfer-states.js";

export interface TimelineStep {
  status: TransferStatus;
  /** Milliseconds after the transfer started. */
  after: number;
}

/** The description: "Transfers typically take 5 to 7 days"; we promise the later end. */
export const ESTIMATED_DURATION = 7 * DAY;

const USUAL: readonly TimelineStep[] = [
  { status: "pending", after: 0 },
  { status: "in_progress", after: HOUR },
  { status: "completed", after: ESTIMATED_DURATION },
];

export const MAGIC_AUTH_CODES: Readonly<Record<string, readonly TimelineStep[]>> = {
  "sandbox-fail": [
    { status: "pending", after: 0 },
    { status: "in_progress", after: HOUR },
    { status: "failed", after: DAY },
  ],
  "sandbox-cancel": [
    { status: "pending", after: 0 },
    { status: "cancelled", after: HOUR },
  ],
  "sandbox-cancel-in-progress": [
    { status: "pending", after: 0 },
    { status: "in_progress", after: HOUR },
    { status: "cancelled", after: 2 * DAY },
  ],
};

export function timelineOf(authCode: string, environment: Environment): readonly TimelineStep[] {
  // Own keys only: an auth code such as "constructor" or "__proto__" must not reach Object.prototype.
  return (environment === "sandbox" && Object.hasOwn(MAGIC_AUTH_CODES, authCode) ? MAGIC_AUTH_CODES[authCode] : undefined) ?? USUAL;
}

/** The transfer's next step and when it falls due, or null when it has none left on its path. */
export function nextStep(transfer: TransferRow, environment: Environment): { status: TransferStatus; dueAt: Date } | null {
  const timeline = timelineOf(transfer.authCode, environment);
  const index = timeline.findIndex((step) => step.status === transfer.status);
  const next = index === -1 ? undefined : timeline[index + 1];
  return next ? { status: next.status, dueAt: new Date(transfer.startedAt.getTime() + next.after) } : null;
}
