/** Delegations in PostgreSQL (migrations/0013_nameservers_and_dnssec.sql), over one connection or transaction. */
import type { DelegationStore, DsRecordRow, GlueRecordRow, NameserverChangeRow } from "../../domain/domains/delegation-store.js";
import { type DbRow, decodeDsRecordsRow, decodeGlueRecordsRow, decodeNameserverChangesRow } from "../../../generated/db-rows.js";
import type { Sql } from "./sql-client.js";

/** Every column of nameserver_changes: what a read that takes the row as JSON (pg-store.ts) names. */
export const NAMESERVER_CHANGE_COLUMNS = ["domain_id", "state", "partner_id", "nameservers", "requested_at", "completes_at"] as const;

/** A row of nameserver_changes as the delegation store's row. */
export const nameserverChange = (row: DbRow): NameserverChangeRow => {
  const r = decodeNameserverChangesRow(row);
  return {
    domainId: r.domain_id,
    partnerId: r.partner_id,
    nameservers: r.nameservers,
    requestedAt: r.requested_at,
    completesAt: r.completes_at,
  };
};

const glue = (row: DbRow): GlueRecordRow => {
  const r = decodeGlueRecordsRow(row);
  return { domainId: r.domain_id, partnerId: r.partner_id, host: r.host, ipv4: r.ipv4, ipv6: r.ipv6, updatedAt: r.updated_at };
};

const ds = (row: DbRow): DsRecordRow => {
  const r = decodeDsRecordsRow(row);
  return {
    id: r.id,
    domainId: r.domain_id,
    partnerId: r.partner_id,
    keyTag: r.key_tag,
    algorithm: r.algorithm,
    digestType: r.digest_type,
    digest: r.digest,
    createdAt: r.created_at,
  };
};

export class PgDelegationStore implements DelegationStore {
  constructor(private readonly sql: Sql) {}

  private async changeIn(state: "pending" | "applied", domainId: string) {
    const [row] = await this.sql.query("SELECT * FROM nameserver_changes WHERE domain_id = $1 AND state = $2", [domainId, state]);
    return row && nameserverChange(row);
  }

  private async saveChange(state: "pending" | "applied", row: NameserverChangeRow) {
    await this.sql.query(
      `INSERT INTO nameserver_changes (domain_id, state, partner_id, nameservers, requested_at, completes_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (domain_id, state) DO UPDATE SET
         partner_id = EXCLUDED.partner_id, nameservers = EXCLUDED.nameservers,
         requested_at = EXCLUDED.requested_at, completes_at = EXCLUDED.completes_at`,
      [row.domainId, state, row.partnerId, row.nameservers, row.requestedAt, row.completesAt],
    );
  }

  pendingNameserverChange(domainId: string) {
    return this.changeIn("pending", domainId);
  }

  appliedNameserverChange(domainId: string) {
    return this.changeIn("applied", domainId);
  }

  async pendingNameserverChangesOfPartner(partnerId: string) {
    const rows = await this.sql.query(
      `SELECT * FROM nameserver_changes WHERE partner_id = $1 AND state = 'pending' ORDER BY completes_at, domain_id COLLATE "C"`,
      [partnerId],
    );
    return rows.map(nameserverChange);
  }

  savePendingNameserverChange(row: NameserverChangeRow) {
    return this.saveChange("pending", row);
  }

  async deletePendingNameserverChange(domainId: string) {
    const rows = await this.sql.query("DELETE FROM nameserver_changes WHERE domain_id = $1 AND state = 'pending' RETURNING domain_id", [
      domainId,
    ]);
    return rows.length > 0;
  }

  saveAppliedNameserverChange(row: NameserverChangeRow) {
    return this.saveChange("applied", row);
  }

  async glueRecordsOf(domainId: string) {
    return (await this.sql.query("SELECT * FROM glue_records WHERE domain_id = $1 ORDER BY host", [domainId])).map(glue);
  }

  async saveGlueRecord(row: GlueRecordRow) {
    await this.sql.query(
      `INSERT INTO glue_records (domain_id, host, partner_id, ipv4, ipv6, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (domain_id, host) DO UPDATE SET ipv4 = EXCLUDED.ipv4, ipv6 = EXCLUDED.ipv6, updated_at = EXCLUDED.updated_at`,
      [row.domainId, row.host, row.partnerId, row.ipv4, row.ipv6, row.updatedAt],
    );
  }

  async deleteGlueRecord(domainId: string, host: string) {
    const rows = await this.sql.query("DELETE FROM glue_records WHERE domain_id = $1 AND host = $2 RETURNING host", [domainId, host]);
    return rows.length > 0;
  }

  async dsRecordsOf(domainId: string) {
    return (await this.sql.query("SELECT * FROM ds_records WHERE domain_id = $1 ORDER BY created_at, id", [domainId])).map(ds);
  }

  async saveDsRecord(row: DsRecordRow) {
    await this.sql.query(
      `INSERT INTO ds_records (id, domain_id, partner_id, key_tag, algorithm, digest_type, digest, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [row.id, row.domainId, row.partnerId, row.keyTag, row.algorithm, row.digestType, row.digest, row.createdAt],
    );
  }

  async deleteDsRecord(domainId: string, id: string) {
    const rows = await this.sql.query("DELETE FROM ds_records WHERE domain_id = $1 AND id = $2 RETURNING id", [domainId, id]);
    return rows.length > 0;
  }
}
