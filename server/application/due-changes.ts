/**
 * Carries out the changes that time brings for one partner, in time order, each at the time it
 * fell due: transfer steps (in and out), domain expiry or auto-renewal, and nameserver changes. Called when a sandbox clock is
 * advanced and by the server's periodic sweep for time that passes on its own. Sessions and
 * rate-limit windows need nothing here: they are checked against the clock when used.
 *
 * The partner's transfers and domains are read once; a change that makes another one due (the
 * next step of a transfer, the domain a completed transfer creates, a renewed domain's next
 * expiry) queues just that one, so k changes cost one pass over the partner's objects, not k.
 */
import type { components } from "../../generated/types/full.js";
import { timestamp, type Clock } from "../platform/clock.js";
import { servicesAt, type Services } from "./context.js";
import { inTransaction } from "./transactions.js";
import { recheckDueConnections } from "./connection-propagation.js";
import { expireOrAutoRenew } from "../domain/domains/domain-lifecycle.js";
import type { DomainRow } from "../domain/domains/domain-store.js";
import type { TransferRow } from "../domain/transfers/transfer-store.js";
import { moveTransfer } from "../domain/transfers/transfer-service.js";
import { nextStep } from "../domain/transfers/transfer-timeline.js";
import type { NameserverChangeRow } from "../domain/domains/delegation-store.js";
import { completeNameserverChange } from "../domain/domains/nameservers.js";
import type { OutboundTransferRow } from "../domain/domains/transfer-out-store.js";
import { finishOutboundTransfer, nextOutboundStep } from "../domain/transfers/outbound-transfers.js";

export type Change = components["schemas"]["SandboxChange"];

interface Due {
  at: Date;
  /**
   * Carries the change out, in `services` of a transaction, and returns it and what it made due;
   * null when it was no longer due (another instance on the same database carried it out first).
   */
  apply(services: Services): Promise<{ change: Change; following: Array<Due | null> } | null>;
}

function transferDue(services: Services, transfer: TransferRow): Due | null {
  const step = nextStep(transfer, services.deployment.environment);
  if (!step) return null;
  return {
    at: step.dueAt,
    apply: async (servicesThen) => {
      const current = await servicesThen.store.findTransfer(transfer.id);
      if (current?.status !== transfer.status) return null;
      const moved = await moveTransfer(servicesThen, transfer.id, step.status);
      const created = moved.domainId ? await servicesThen.store.findDomain(moved.domainId) : undefined;
      return {
        change: { object: "transfer", id: transfer.id, from: transfer.status, to: step.status, at: timestamp(step.dueAt) },
        following: [transferDue(services, moved), created ? domainDue(created) : null],
      };
    },
  };
}

/** A pending transfer to another registrar: its sandbox answer, or the auto-approval. */
function outboundTransferDue(services: Services, transfer: OutboundTransferRow): Due | null {
  const step = nextOutboundStep(transfer, services.deployment.environment);
  if (!step) return null;
  return {
    at: step.dueAt,
    apply: async (servicesThen) => {
      const current = await servicesThen.store.transferOut.latestOutboundTransfer(transfer.domainId);
      if (current?.id !== transfer.id || current.status !== "pending") return null;
      await finishOutboundTransfer(servicesThen, current, step.status);
      // Outbound transfers are transfers too: one object kind keeps the change list's enum as published.
      return {
        change: { object: "transfer", id: transfer.id, from: "pending", to: step.status, at: timestamp(step.dueAt) },
        following: [],
      };
    },
  };
}

function domainDue(domain: DomainRow): Due | null {
  if (domain.status !== "active") return null;
  return {
    at: domain.expiresAt,
    apply: async (servicesThen) => {
      const current = await servicesThen.store.findDomain(domain.id);
      // A domain transferred out on the way is gone: nothing left to expire.
      if (current?.status !== "active" || current.expiresAt.getTime() !== domain.expiresAt.getTime()) return null;
      const after = await expireOrAutoRenew(servicesThen, current);
      return {
        change: { object: "domain", id: domain.id, from: domain.status, to: after.status, at: timestamp(domain.expiresAt) },
        following: [domainDue(after)],
      };
    },
  };
}

/** A pending nameserver change, carried out when the registry's delay has passed; shown as its domain's, status unchanged. */
function nameserverDue(change: NameserverChangeRow): Due {
  return {
    at: change.completesAt,
    apply: async (servicesThen) => {
      const changed = await completeNameserverChange(servicesThen, change);
      if (!changed) return null;
      return {
        change: { object: "domain", id: changed.id, from: changed.status, to: changed.status, at: timestamp(change.completesAt) },
        following: [],
      };
    },
  };
}

/** Adds what a change made due, in time order, after those due at the same time. */
function enqueue(queue: Due[], due: Due | null, until: Date): void {
  if (!due || due.at > until) return;
  let index = queue.length;
  while (index > 0 && queue[index - 1]!.at > due.at) index--;
  queue.splice(index, 0, due);
}

/**
 * Applies everything due for the partner up to its clock's now, each change in a transaction of
 * its own (checked again there, so instances sweeping at once carry each out once); returns what
 * changed, in order. `services` are outside any transaction.
 */
export async function applyDueChanges(services: Services, partnerId: string): Promise<Change[]> {
  await services.clocks.refresh(partnerId);
  const until = services.clocks.clockFor(partnerId).now();
  const [transfers, domains, outbound, nameserverChanges] = await Promise.all([
    services.store.activeTransfersOfPartner(partnerId),
    services.store.activeDomainsEndingBy(partnerId, until),
    services.store.transferOut.pendingOutboundTransfersOfPartner(partnerId),
    services.store.delegations.pendingNameserverChangesOfPartner(partnerId),
  ]);
  const queue = [
    ...transfers.map((transfer) => transferDue(services, transfer)),
    ...domains.map(domainDue),
    ...outbound.map((transfer) => outboundTransferDue(services, transfer)),
    ...nameserverChanges.map(nameserverDue),
  ]
    .filter((due): due is Due => due !== null && due.at <= until)
    // Stable: on a tie, transfers before domains, as they were read.
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const changes: Change[] = [];
  for (let due = queue.shift(); due; due = queue.shift()) {
    const dueAt = due.at;
    const then: Clock = { now: () => new Date(dueAt) };
    const applied = await inTransaction(servicesAt(services, then), (servicesThen) => due.apply(servicesThen));
    if (!applied) continue;
    changes.push(applied.change);
    applied.following.forEach((follow) => enqueue(queue, follow, until));
  }
  await recheckDueConnections(services, partnerId, until);
  return changes;
}

/** Applies what is due for every partner with data: the periodic sweep. */
export async function applyAllDueChanges(services: Services): Promise<number> {
  let count = 0;
  for (const partnerId of await services.store.partnersWithData()) count += (await applyDueChanges(services, partnerId)).length;
  return count;
}
