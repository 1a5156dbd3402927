/** The connection check's requirements and domain states on PostgreSQL (migrations/0015_connection_requirements.sql). */
import type { Environment } from "../../../generated/deployment.js";
import { type DbRow, decodeColumns } from "../../../generated/db-rows.js";
import type { ConnectionRequirement } from "../../domain/connection/connection-requirements.js";
import {
  NO_REQUIREMENTS,
  type ConnectionStateRow,
  type ConnectionStore,
  type StoredRequirements,
} from "../../domain/connection/connection-store.js";
import { jsonArray, jsonObject } from "./column-values.js";
import type { Sql } from "./sql-client.js";

const STATE_COLUMNS = ["domain_id", "partner_id", "configured", "recheck_at", "checked_at"] as const;

const stateOf = (row: DbRow): ConnectionStateRow => {
  const r = decodeColumns(row, "domain_connection_states", STATE_COLUMNS);
  return { domainId: r.domain_id, partnerId: r.partner_id, configured: r.configured, recheckAt: r.recheck_at, checkedAt: r.checked_at };
};

export class PgConnectionStore implements ConnectionStore {
  constructor(private readonly sql: Sql) {}

  async requirementsOf(partnerId: string, environment: Environment): Promise<StoredRequirements> {
    const [found] = await this.sql.query(
      "SELECT requirements, updated_at FROM connection_requirements WHERE partner_id = $1 AND environment = $2",
      [partnerId, environment],
    );
    if (!found) return NO_REQUIREMENTS;
    const row = decodeColumns(found, "connection_requirements", ["requirements", "updated_at"]);
    // Checked by readRequirements before they were stored: each item is a requirement as the API answers it.
    const requirements = jsonArray(row.requirements, "connection_requirements.requirements").map(
      (item) => jsonObject(item, "connection_requirements.requirements[]") as unknown as ConnectionRequirement,
    );
    return { requirements, updatedAt: row.updated_at };
  }

  async saveRequirements(partnerId: string, environment: Environment, requirements: ConnectionRequirement[], now: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO connection_requirements (partner_id, environment, requirements, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (partner_id, environment) DO UPDATE SET requirements = EXCLUDED.requirements, updated_at = EXCLUDED.updated_at`,
      [partnerId, environment, JSON.stringify(requirements), now],
    );
  }

  async stateOf(domainId: string): Promise<ConnectionStateRow | undefined> {
    const [found] = await this.sql.query(`SELECT ${STATE_COLUMNS.join(", ")} FROM domain_connection_states WHERE domain_id = $1`, [
      domainId,
    ]);
    return found && stateOf(found);
  }

  async saveState(state: ConnectionStateRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO domain_connection_states (${STATE_COLUMNS.join(", ")}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (domain_id) DO UPDATE
       SET configured = EXCLUDED.configured, recheck_at = EXCLUDED.recheck_at, checked_at = EXCLUDED.checked_at`,
      [state.domainId, state.partnerId, state.configured, state.recheckAt, state.checkedAt],
    );
  }

  async rechecksDue(partnerId: string, until: Date): Promise<ConnectionStateRow[]> {
    const rows = await this.sql.query(
      `SELECT ${STATE_COLUMNS.join(", ")} FROM domain_connection_states
       WHERE partner_id = $1 AND recheck_at IS NOT NULL AND recheck_at <= $2 ORDER BY recheck_at, domain_id`,
      [partnerId, until],
    );
    return rows.map(stateOf);
  }
}
