/** Starting transfers and moving them through their states (transfer-states.ts). */
import { assertDomainAllowed } from "../access/key-access.js";
import { timestamp } from "../../platform/clock.js";
import type { components } from "../../../generated/types/full.js";
import type { DomainServices } from "../domains/domain-services.js";
import type { TransferRow, TransferStore } from "./transfer-store.js";
import { parseDomainName } from "../catalog/domain-names.js";
import { registerDomain } from "../domains/registration.js";
import { domainDetail } from "../domains/domain-views.js";
import { apiErrors } from "../../platform/errors.js";
import { newId } from "../../platform/ids.js";
import { canMove, isFinal, type TransferStatus } from "./transfer-states.js";
import { findTld } from "../catalog/tlds.js";
import { ESTIMATED_DURATION } from "./transfer-timeline.js";

export interface TransferRequest {
  partnerId: string;
  userIdentifier: string;
  domainName: string;
  authCode: string;
  extendRegistration: boolean;
}

/** What transfers use of a deployment's services: the domain services' (a completed transfer registers its domain) and the transfers. */
export interface TransferServices extends DomainServices {
  store: DomainServices["store"] & TransferStore;
}

export async function startTransfer(services: TransferServices, request: TransferRequest): Promise<TransferRow> {
  const { store, clock } = services;
  const { name, tld } = parseDomainName(request.domainName, "domain_name");
  // A key restricted to some domains transfers in no other.
  assertDomainAllowed(name);
  if (!(await store.findUser(request.partnerId, request.userIdentifier))) throw apiErrors.notFound("User", request.userIdentifier);
  if (await store.findDomainByName(name)) {
    throw apiErrors.conflict(`${name} is already registered through this service`, { field: "domain_name", code: "already_registered" });
  }
  if (await store.activeTransferOf(name)) {
    throw apiErrors.conflict(`A transfer of ${name} is already in progress`, { field: "domain_name", code: "transfer_in_progress" });
  }
  if (tld.transfer === 0) {
    throw apiErrors.invalidValue(
      "domain_name",
      "invalid_value",
      `.${tld.tld} domains are moved by a registrar tag change, not by a transfer`,
    );
  }
  const now = clock.now();
  const transfer: TransferRow = {
    id: newId("trf"),
    partnerId: request.partnerId,
    userIdentifier: request.userIdentifier,
    domainName: name,
    status: "pending",
    authCode: request.authCode,
    extendRegistration: request.extendRegistration,
    cost: tld.transfer + (request.extendRegistration ? tld.renewal : 0),
    currency: "USD",
    startedAt: now,
    estimatedCompletion: new Date(now.getTime() + ESTIMATED_DURATION),
    completedAt: null,
    domainId: null,
    history: [{ status: "pending", at: now }],
  };
  await store.saveTransfer(transfer);
  return transfer;
}

export function transferStatusView(transfer: TransferRow): components["schemas"]["TransferStatus"] {
  return {
    transfer_id: transfer.id,
    domain_name: transfer.domainName,
    status: transfer.status,
    started_at: timestamp(transfer.startedAt),
    completed_at: transfer.completedAt && timestamp(transfer.completedAt),
    domain_id: transfer.domainId,
    history: transfer.history.map((step) => ({ status: step.status, at: timestamp(step.at) })),
  };
}

/**
 * Moves a transfer to its next state. Completion registers the domain under the user (charging
 * the transfer cost); failure and cancellation leave nothing behind. Emits one event per move.
 */
export async function moveTransfer(services: TransferServices, transferId: string, to: TransferStatus): Promise<TransferRow> {
  const { store, clock, outbox } = services;
  const transfer = await store.findTransfer(transferId);
  if (!transfer) throw apiErrors.notFound("Transfer", transferId);
  if (!canMove(transfer.status, to)) {
    throw apiErrors.conflict(`A ${transfer.status} transfer cannot become ${to}`, { field: "status", code: "invalid_status" });
  }
  const now = clock.now();
  const moved: TransferRow = {
    ...transfer,
    status: to,
    completedAt: isFinal(to) ? now : null,
    history: [...transfer.history, { status: to, at: now }],
  };
  if (to === "completed") {
    const tld = findTld(transfer.domainName.split(".").pop()!)!;
    const domain = await registerDomain(store, clock, {
      partnerId: transfer.partnerId,
      userIdentifier: transfer.userIdentifier,
      name: transfer.domainName,
      tld,
      years: transfer.extendRegistration ? 2 : 1,
      charge: transfer.cost,
    });
    moved.domainId = domain.id;
    // The spec's domain.registered: "Sent when a purchase ... or a completed transfer creates a domain."
    outbox.emit(transfer.partnerId, "domain.registered", { data: await domainDetail(services, domain) });
  }
  await store.saveTransfer(moved);
  outbox.emit(transfer.partnerId, "transfer.status_changed", { previous_status: transfer.status, data: transferStatusView(moved) });
  return moved;
}
