/**
 * The registrar lock and the transfer-out authorisation code of a domain (the Transfers tag of the
 * spec): the lock is on unless the owner turned it off; the code is made on its first read, and
 * refused while the registries' post-registration waiting period runs.
 */
import { DAY, timestamp } from "../../platform/clock.js";
import { apiErrors } from "../../platform/errors.js";
import { randomBase62 } from "../../platform/ids.js";
import type { DomainRow } from "./domain-store.js";
import type { TransferControlsRow, WithTransferOut } from "./transfer-out-store.js";

/**
 * ICANN transfer policy: no transfer to another registrar within 60 days of a registration or of
 * a completed inbound transfer. A completed inbound transfer registers the domain anew
 * (registration.ts), so `purchasedAt` marks the start of either.
 */
export const TRANSFER_WAITING_PERIOD = 60 * DAY;

export const AUTH_CODE_PREFIX = "tac_";

export function controlsWithDefaults(domain: DomainRow, row: TransferControlsRow | undefined): TransferControlsRow {
  return (
    row ?? {
      domainId: domain.id,
      partnerId: domain.partnerId,
      transferLock: true,
      authCode: null,
      authCodeCreatedAt: null,
      updatedAt: domain.updatedAt,
    }
  );
}

export async function transferControlsOf(store: WithTransferOut, domain: DomainRow): Promise<TransferControlsRow> {
  return controlsWithDefaults(domain, await store.transferOut.controlsOf(domain.id));
}

/** When the domain's code can first be read, and so a transfer out first made. */
export const transferAllowedFrom = (domain: DomainRow) =>
  // From the whole second answers show: 60 days after `purchased_at` as the partner reads it, not a fraction of a second later.
  new Date(Math.floor(domain.purchasedAt.getTime() / 1000) * 1000 + TRANSFER_WAITING_PERIOD);

/** 409 `invalid_status` unless the domain is active: the registry changes nothing else of a domain in another status. */
export function assertActiveForTransferControls(domain: DomainRow): void {
  if (domain.status !== "active") {
    throw apiErrors.conflict(`The registrar controls of a ${domain.status} domain cannot be used`, {
      field: "status",
      code: "invalid_status",
    });
  }
}

/**
 * Sets the lock (the caller saves the domain and sends domain.updated). Refused with 422, a status
 * the update already documents, where the other controls answer 409.
 */
export async function saveTransferLock(store: WithTransferOut, domain: DomainRow, lock: boolean, now: Date): Promise<void> {
  if (domain.status !== "active") {
    throw apiErrors.unprocessable(`The registrar lock of a ${domain.status} domain cannot be changed`, {
      field: "transfer_lock",
      code: "invalid_status",
    });
  }
  const controls = await transferControlsOf(store, domain);
  if (controls.transferLock === lock) return;
  await store.transferOut.saveControls({ ...controls, transferLock: lock, updatedAt: now });
}

/** The domain's code, made on the first read; refused (409) while the domain is not active or within the waiting period. */
export async function readAuthCode(
  store: WithTransferOut,
  domain: DomainRow,
  now: Date,
): Promise<TransferControlsRow & { authCode: string; authCodeCreatedAt: Date }> {
  assertActiveForTransferControls(domain);
  const availableAt = transferAllowedFrom(domain);
  if (now < availableAt) {
    throw apiErrors.conflict(
      `Registries allow no transfer within 60 days of a registration or transfer; the code of ${domain.name} is available from ${timestamp(availableAt)}`,
      { field: "purchased_at", code: "transfer_not_yet_allowed", available_at: timestamp(availableAt) },
    );
  }
  const controls = await transferControlsOf(store, domain);
  if (controls.authCode !== null && controls.authCodeCreatedAt !== null)
    return { ...controls, authCode: controls.authCode, authCodeCreatedAt: controls.authCodeCreatedAt };
  await store.transferOut.saveControls({
    ...controls,
    authCode: AUTH_CODE_PREFIX + randomBase62(24),
    authCodeCreatedAt: now,
    updatedAt: now,
  });
  // Read back: of two first reads at once, the store keeps one code, and both must answer it.
  const kept = (await store.transferOut.controlsOf(domain.id))!;
  return { ...kept, authCode: kept.authCode!, authCodeCreatedAt: kept.authCodeCreatedAt! };
}
