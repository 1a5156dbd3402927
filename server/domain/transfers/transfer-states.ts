/** The transfer state machine documented on the Transfers tag of the spec. */
import type { TransferRow } from "./transfer-store.js";

export type TransferStatus = TransferRow["status"];

const NEXT: Record<TransferStatus, readonly TransferStatus[]> = {
  pending: ["in_progress", "cancelled"],
  in_progress: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

export const isFinal = (status: TransferStatus) => NEXT[status].length === 0;

export const canMove = (from: TransferStatus, to: TransferStatus) => NEXT[from].includes(to);
