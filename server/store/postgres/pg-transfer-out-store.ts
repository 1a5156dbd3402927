/** Registrar controls and outbound transfers in PostgreSQL (migrations/0014_transfer_out.sql), over the store's connection or transaction. */
import type {
  OutboundTransferRow,
  OutboundTransferStatus,
  TransferControlsRow,
  TransferOutStore,
} from "../../domain/domains/transfer-out-store.js";
import { type DbRow, decodeColumns } from "../../../generated/db-rows.js";
import { oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

const OUTBOUND_STATUSES: Readonly<Record<OutboundTransferStatus, true>> = {
  pending: true,
  completed: true,
  rejected: true,
  cancelled: true,
};

export const CONTROL_COLUMNS = ["domain_id", "partner_id", "transfer_lock", "auth_code", "auth_code_created_at", "updated_at"] as const;
/** A row of transfer_controls (its CONTROL_COLUMNS) as the store's row. */
export const transferControls = (row: DbRow): TransferControlsRow => {
  const r = decodeColumns(row, "transfer_controls", CONTROL_COLUMNS);
  return {
    domainId: r.domain_id,
    partnerId: r.partner_id,
    transferLock: r.transfer_lock,
    authCode: r.auth_code,
    authCodeCreatedAt: r.auth_code_created_at,
    updatedAt: r.updated_at,
  };
};

const OUTBOUND_COLUMNS = [
  "id",
  "domain_id",
  "partner_id",
  "domain_name",
  "status",
  "gaining_registrar",
  "requested_at",
  "auto_approve_at",
  "completed_at",
] as const;
const outbound = (row: DbRow): OutboundTransferRow => {
  const r = decodeColumns(row, "outbound_transfers", OUTBOUND_COLUMNS);
  return {
    id: r.id,
    domainId: r.domain_id,
    partnerId: r.partner_id,
    domainName: r.domain_name,
    status: oneOf(r.status, OUTBOUND_STATUSES, "outbound_transfers.status"),
    gainingRegistrar: r.gaining_registrar,
    requestedAt: r.requested_at,
    autoApproveAt: r.auto_approve_at,
    completedAt: r.completed_at,
  };
};

export class PgTransferOutStore implements TransferOutStore {
  constructor(private readonly sql: Sql) {}

  async controlsOf(domainId: string) {
    const [row] = await this.sql.query("SELECT * FROM transfer_controls WHERE domain_id = $1", [domainId]);
    return row && transferControls(row);
  }

  async controlsOfDomains(domainIds: readonly string[]) {
    if (domainIds.length === 0) return new Map<string, TransferControlsRow>();
    const rows = await this.sql.query("SELECT * FROM transfer_controls WHERE domain_id = ANY($1::text[])", [[...domainIds]]);
    return new Map(rows.map((row) => transferControls(row)).map((row) => [row.domainId, row]));
  }

  async saveControls(row: TransferControlsRow) {
    // A code once made is kept: two first reads at once answer the same code.
    await this.sql.query(
      `INSERT INTO transfer_controls (domain_id, partner_id, transfer_lock, auth_code, auth_code_created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (domain_id) DO UPDATE SET
         transfer_lock = EXCLUDED.transfer_lock, updated_at = EXCLUDED.updated_at,
         auth_code = coalesce(transfer_controls.auth_code, EXCLUDED.auth_code),
         auth_code_created_at = coalesce(transfer_controls.auth_code_created_at, EXCLUDED.auth_code_created_at)`,
      [row.domainId, row.partnerId, row.transferLock, row.authCode, row.authCodeCreatedAt, row.updatedAt],
    );
  }

  async latestOutboundTransfer(domainId: string) {
    const [row] = await this.sql.query(
      "SELECT * FROM outbound_transfers WHERE domain_id = $1 ORDER BY requested_at DESC, id DESC LIMIT 1",
      [domainId],
    );
    return row && outbound(row);
  }

  async pendingOutboundTransfersOfPartner(partnerId: string) {
    const rows = await this.sql.query(
      "SELECT * FROM outbound_transfers WHERE partner_id = $1 AND status = 'pending' ORDER BY requested_at, id",
      [partnerId],
    );
    return rows.map(outbound);
  }

  async saveOutboundTransfer(row: OutboundTransferRow) {
    await this.sql.query(
      `INSERT INTO outbound_transfers (id, domain_id, partner_id, domain_name, status, gaining_registrar, requested_at, auto_approve_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, completed_at = EXCLUDED.completed_at`,
      [
        row.id,
        row.domainId,
        row.partnerId,
        row.domainName,
        row.status,
        row.gainingRegistrar,
        row.requestedAt,
        row.autoApproveAt,
        row.completedAt,
      ],
    );
  }
}
