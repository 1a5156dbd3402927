/**
 * Transfers of a partner's domains to other registrars (the Transfers tag of the spec): requested
 * by the gaining registrar with the domain's code, refused at once while the domain is locked or
 * the code is wrong; then pending until the owner answers, completing after the ICANN
 * auto-approval period without an answer. A completed one deletes the domain.
 */
import { timingSafeEqual } from "node:crypto";
import type { components } from "../../../generated/types/full.js";
import type { Environment } from "../../../generated/deployment.js";
import { DAY, HOUR, timestamp } from "../../platform/clock.js";
import { apiErrors } from "../../platform/errors.js";
import { newId } from "../../platform/ids.js";
import type { DomainServices } from "../domains/domain-services.js";
import type { DomainRow } from "../domains/domain-store.js";
import { assertActiveForTransferControls, transferControlsOf } from "../domains/transfer-controls.js";
import type { OutboundTransferRow, OutboundTransferStatus } from "../domains/transfer-out-store.js";

/** ICANN transfer policy: the losing registrar's silence approves a transfer after 5 days. */
export const AUTO_APPROVE_AFTER = 5 * DAY;

export const DEFAULT_GAINING_REGISTRAR = "Another registrar";

/** Sandbox names of the gaining registrar that answer for the owner an hour after the request (the Sandbox tag's table). */
export const MAGIC_GAINING_REGISTRARS: Readonly<Record<string, OutboundTransferStatus>> = {
  "sandbox-approve": "completed",
  "sandbox-reject": "rejected",
  "sandbox-cancel": "cancelled",
};
const MAGIC_ANSWER_AFTER = HOUR;

type FinalStatus = Exclude<OutboundTransferStatus, "pending">;

const EVENT_OF = {
  pending: "domain.transfer_out.requested",
  completed: "domain.transfer_out.completed",
  rejected: "domain.transfer_out.rejected",
  cancelled: "domain.transfer_out.cancelled",
} as const satisfies Record<OutboundTransferStatus, components["schemas"]["EventType"]>;

export function outboundTransferView(transfer: OutboundTransferRow): components["schemas"]["OutboundTransfer"] {
  return {
    id: transfer.id,
    domain_id: transfer.domainId,
    domain_name: transfer.domainName,
    status: transfer.status,
    gaining_registrar: transfer.gainingRegistrar,
    requested_at: timestamp(transfer.requestedAt),
    auto_approve_at: timestamp(transfer.autoApproveAt),
    completed_at: transfer.completedAt && timestamp(transfer.completedAt),
  };
}

/** A pending transfer's next step and when it falls due; null once it is final. */
export function nextOutboundStep(transfer: OutboundTransferRow, environment: Environment): { status: FinalStatus; dueAt: Date } | null {
  if (transfer.status !== "pending") return null;
  // Own keys only: a name such as "constructor" must not reach Object.prototype.
  const magic = environment === "sandbox" && Object.hasOwn(MAGIC_GAINING_REGISTRARS, transfer.gainingRegistrar);
  if (magic) {
    return {
      status: MAGIC_GAINING_REGISTRARS[transfer.gainingRegistrar] as FinalStatus,
      dueAt: new Date(transfer.requestedAt.getTime() + MAGIC_ANSWER_AFTER),
    };
  }
  return { status: "completed", dueAt: transfer.autoApproveAt };
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface OutboundTransferRequest {
  authCode: string;
  gainingRegistrar?: string;
}

/** What the gaining registrar's request does at the registry: refused at once, or a pending transfer and its event. */
export async function requestOutboundTransfer(
  services: DomainServices,
  domain: DomainRow,
  request: OutboundTransferRequest,
): Promise<OutboundTransferRow> {
  const { store, clock, outbox } = services;
  assertActiveForTransferControls(domain);
  if ((await store.transferOut.latestOutboundTransfer(domain.id))?.status === "pending") {
    throw apiErrors.conflict(`A transfer of ${domain.name} to another registrar is already pending`, {
      field: "domain_id",
      code: "transfer_in_progress",
    });
  }
  const controls = await transferControlsOf(store, domain);
  if (controls.transferLock) {
    throw apiErrors.conflict(`${domain.name} is locked against transfers; its owner must turn transfer_lock off first`, {
      field: "transfer_lock",
      code: "transfer_locked",
    });
  }
  if (controls.authCode === null || !sameCode(request.authCode, controls.authCode)) {
    throw apiErrors.invalidValue("auth_code", "invalid_value", `auth_code is not the transfer code of ${domain.name}`);
  }
  const now = clock.now();
  const transfer: OutboundTransferRow = {
    id: newId("tro"),
    domainId: domain.id,
    partnerId: domain.partnerId,
    domainName: domain.name,
    status: "pending",
    gainingRegistrar: request.gainingRegistrar ?? DEFAULT_GAINING_REGISTRAR,
    requestedAt: now,
    autoApproveAt: new Date(now.getTime() + AUTO_APPROVE_AFTER),
    completedAt: null,
  };
  await store.transferOut.saveOutboundTransfer(transfer);
  outbox.emit(domain.partnerId, EVENT_OF.pending, { data: outboundTransferView(transfer) });
  return transfer;
}

/** The domain's pending transfer, or 409 `invalid_status` when it has none. */
export async function pendingOutboundTransferOf(services: DomainServices, domain: DomainRow): Promise<OutboundTransferRow> {
  const latest = await services.store.transferOut.latestOutboundTransfer(domain.id);
  if (latest?.status !== "pending") {
    throw apiErrors.conflict(`${domain.name} has no pending transfer to another registrar`, { field: "status", code: "invalid_status" });
  }
  return latest;
}

/**
 * Ends a pending transfer in `to`, with its event. Completion deletes the domain with its records:
 * the domain now belongs to another registrar.
 */
export async function finishOutboundTransfer(
  services: DomainServices,
  transfer: OutboundTransferRow,
  to: FinalStatus,
): Promise<OutboundTransferRow> {
  const moved: OutboundTransferRow = { ...transfer, status: to, completedAt: services.clock.now() };
  await services.store.transferOut.saveOutboundTransfer(moved);
  if (to === "completed") await services.store.deleteDomain(transfer.domainId);
  services.outbox.emit(transfer.partnerId, EVENT_OF[to], { data: outboundTransferView(moved) });
  return moved;
}

/** The owner's answer (the API and the embedded interface). */
export async function answerOutboundTransfer(
  services: DomainServices,
  domain: DomainRow,
  decision: "approve" | "reject",
): Promise<OutboundTransferRow> {
  const pending = await pendingOutboundTransferOf(services, domain);
  return finishOutboundTransfer(services, pending, decision === "approve" ? "completed" : "rejected");
}
