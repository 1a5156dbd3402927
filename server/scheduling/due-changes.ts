/**
 * Carries out the changes that time brings for one partner, in time order, each at the time it
 * fell due: transfer steps and domain expiry or auto-renewal. Called when a sandbox clock is
 * advanced and by the server's periodic sweep for time that passes on its own. Sessions and
 * rate-limit windows need nothing here: they are checked against the clock when used.
 */
import type { components } from "../../generated/types/full.js";
import { timestamp, type Clock } from "../clock.js";
import { servicesAt, type Services } from "../context.js";
import { expireOrAutoRenew } from "../domains/domain-lifecycle.js";
import { moveTransfer } from "../transfers/transfer-service.js";
import { nextStep } from "../transfers/transfer-timeline.js";

export type Change = components["schemas"]["SandboxChange"];

interface Due {
  at: Date;
  apply(services: Services): Change;
}

/** The earliest change due by `until`, or null. A linear scan: sandbox partners hold few objects. */
function earliestDue(services: Services, partnerId: string, until: Date): Due | null {
  const { store, deployment } = services;
  let earliest: Due | null = null;
  const consider = (due: Due) => {
    if (due.at <= until && (!earliest || due.at < earliest.at)) earliest = due;
  };
  for (const transfer of store.activeTransfersOfPartner(partnerId)) {
    const step = nextStep(transfer, deployment.environment);
    if (!step) continue;
    consider({
      at: step.dueAt,
      apply: (servicesThen) => {
        moveTransfer(servicesThen, transfer.id, step.status);
        return { object: "transfer", id: transfer.id, from: transfer.status, to: step.status, at: timestamp(step.dueAt) };
      },
    });
  }
  for (const domain of store.domainsOfPartner(partnerId)) {
    if (domain.status !== "active") continue;
    consider({
      at: domain.expiresAt,
      apply: (servicesThen) => {
        const after = expireOrAutoRenew(servicesThen, domain);
        return { object: "domain", id: domain.id, from: domain.status, to: after.status, at: timestamp(domain.expiresAt) };
      },
    });
  }
  return earliest;
}

/** Applies everything due for the partner up to its clock's now; returns what changed, in order. */
export function applyDueChanges(services: Services, partnerId: string): Change[] {
  const until = services.clocks.clockFor(partnerId).now();
  const changes: Change[] = [];
  for (let due = earliestDue(services, partnerId, until); due; due = earliestDue(services, partnerId, until)) {
    const dueAt = due.at;
    const then: Clock = { now: () => new Date(dueAt) };
    changes.push(due.apply(servicesAt(services, then)));
  }
  return changes;
}

/** Applies what is due for every partner with data: the periodic sweep. */
export function applyAllDueChanges(services: Services): number {
  return services.store.partnersWithData().reduce((count, partnerId) => count + applyDueChanges(services, partnerId).length, 0);
}
