/** Forgetting a long backlog as many short statements: no statement holds its locks, or its WAL, for the whole backlog. */
import { RETENTION_BATCH_ROWS } from "../../platform/retention-policy.js";
import { decodeComputed } from "../../../generated/db-rows.js";
import type { Sql } from "./sql-client.js";

/**
 * Deletes the rows of `table` that `where` selects (its parameters `params`), at most
 * RETENTION_BATCH_ROWS per statement, each statement committed on its own; answers how many.
 * A batch is deleted by its rows' physical places (a TID scan): joining on a key would read the table.
 */
export async function deleteInBatches(sql: Sql, table: string, where: string, params: readonly unknown[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [row] = await sql.query(
      `WITH gone AS (DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT $${params.length + 1})) RETURNING 1)
       SELECT count(*)::integer AS deleted FROM gone`,
      [...params, RETENTION_BATCH_ROWS],
    );
    const batch = decodeComputed(row!, { deleted: "number" }).deleted;
    deleted += batch;
    if (batch < RETENTION_BATCH_ROWS) return deleted;
  }
}
