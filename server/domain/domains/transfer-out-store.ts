/**
 * A domain's registrar controls and its transfers to other registrars, as stored: tables of their
 * own, so the domains' table stays as it was; they go with their domain. A domain without a
 * controls row is locked and has no auth code yet (the state registration leaves).
 */

export interface TransferControlsRow {
  domainId: string;
  partnerId: string;
  transferLock: boolean;
  /** Null until the code is first read. */
  authCode: string | null;
  authCodeCreatedAt: Date | null;
  updatedAt: Date;
}

export type OutboundTransferStatus = "pending" | "completed" | "rejected" | "cancelled";

export interface OutboundTransferRow {
  id: string;
  domainId: string;
  partnerId: string;
  domainName: string;
  status: OutboundTransferStatus;
  gainingRegistrar: string;
  requestedAt: Date;
  /** When a pending transfer completes without an answer. */
  autoApproveAt: Date;
  completedAt: Date | null;
}

/** The port of the store that keeps them, reached as `store.transferOut`. */
export interface TransferOutStore {
  controlsOf(domainId: string): Promise<TransferControlsRow | undefined>;
  /** The rows of those of `domainIds` that have one (a list page's domains in one read). */
  controlsOfDomains(domainIds: readonly string[]): Promise<Map<string, TransferControlsRow>>;
  saveControls(controls: TransferControlsRow): Promise<void>;
  /** The domain's most recently requested outbound transfer, if any. */
  latestOutboundTransfer(domainId: string): Promise<OutboundTransferRow | undefined>;
  /** The partner's pending outbound transfers, oldest request first: what the sweep moves on. */
  pendingOutboundTransfersOfPartner(partnerId: string): Promise<OutboundTransferRow[]>;
  saveOutboundTransfer(transfer: OutboundTransferRow): Promise<void>;
}

/** What a store that keeps them offers. */
export interface WithTransferOut {
  readonly transferOut: TransferOutStore;
}
