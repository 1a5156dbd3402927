/** Transfers as stored, and the port of the store that keeps them. */
import type { components } from "../../../generated/types/full.js";
import type { Cents } from "../../platform/money.js";

type Schemas = components["schemas"];

export interface TransferRow {
  id: string;
  partnerId: string;
  userIdentifier: string;
  domainName: string;
  status: Schemas["TransferStatusValue"];
  authCode: string;
  extendRegistration: boolean;
  cost: Cents;
  currency: string;
  startedAt: Date;
  estimatedCompletion: Date;
  completedAt: Date | null;
  domainId: string | null;
  /** Every status reached, oldest first. */
  history: Array<{ status: Schemas["TransferStatusValue"]; at: Date }>;
}

/** Transfers in, of every partner. */
export interface TransferStore {
  findTransfer(id: string): Promise<TransferRow | undefined>;
  /** The partner's pending and in-progress transfers. */
  activeTransfersOfPartner(partnerId: string): Promise<TransferRow[]>;
  /** The pending or in-progress transfer of a name, if any. */
  activeTransferOf(domainName: string): Promise<TransferRow | undefined>;
  saveTransfer(transfer: TransferRow): Promise<void>;
}
