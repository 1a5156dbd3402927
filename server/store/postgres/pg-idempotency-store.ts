/** Idempotency keys in PostgreSQL: shared by every instance on the database (migrations/0002_idempotency_keys.sql). */
import { randomUUID } from "node:crypto";
import type { IdempotencyScope, IdempotencyStore, KeyClaim, StoredAnswer } from "../../platform/idempotency/idempotency-store.js";
import { decodeColumns } from "../../../generated/db-rows.js";
import { jsonStringRecord } from "./column-values.js";
import type { Sql } from "./sql-client.js";

const SCOPE = "partner_id = $1 AND environment = $2 AND method = $3 AND path = $4 AND idempotency_key = $5";
const scopeParams = (s: IdempotencyScope) => [s.partnerId, s.environment, s.method, s.path, s.key];

export class PgIdempotencyStore implements IdempotencyStore {
  constructor(private readonly sql: Sql) {}

  async claim(scope: IdempotencyScope, fingerprint: string, now: Date, keptSince: Date, leaseMs: number): Promise<KeyClaim> {
    const token = randomUUID();
    // One statement: a free key (absent, expired, or its lease over unanswered) becomes this claim's;
    // a held one is returned as it is. The row lock of ON CONFLICT makes concurrent claims take turns.
    const [row] = await this.sql.query(
      `INSERT INTO idempotency_keys AS k (partner_id, environment, method, path, idempotency_key, fingerprint, claim_token, created_at, locked_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp() + $9 * interval '1 millisecond')
       ON CONFLICT (partner_id, environment, method, path, idempotency_key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, claim_token = EXCLUDED.claim_token, created_at = EXCLUDED.created_at,
             locked_until = EXCLUDED.locked_until, answer_status = NULL, answer_body = NULL, answer_headers = NULL
         WHERE k.created_at < $10 OR (k.answer_status IS NULL AND k.locked_until < clock_timestamp())
       RETURNING 1`,
      [...scopeParams(scope), fingerprint, token, now, leaseMs, keptSince],
    );
    if (row) return { state: "claimed", token };
    // The key is held: read what holds it (a row the statement above did not update returns nothing).
    const [found] = await this.sql.query(
      `SELECT fingerprint, claim_token, answer_status, answer_body, answer_headers FROM idempotency_keys WHERE ${SCOPE}`,
      scopeParams(scope),
    );
    if (!found) return this.claim(scope, fingerprint, now, keptSince, leaseMs);
    const held = decodeColumns(found, "idempotency_keys", ["fingerprint", "answer_status", "answer_body", "answer_headers"]);
    return held.answer_status === null
      ? { state: "running", fingerprint: held.fingerprint }
      : {
          state: "completed",
          fingerprint: held.fingerprint,
          answer: {
            status: held.answer_status,
            body: held.answer_body,
            headers: held.answer_headers === null ? {} : jsonStringRecord(held.answer_headers, "idempotency_keys.answer_headers"),
          },
        };
  }

  async complete(scope: IdempotencyScope, token: string, answer: StoredAnswer): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE idempotency_keys SET answer_status = $7, answer_body = $8::jsonb, answer_headers = $9::jsonb, locked_until = NULL
       WHERE ${SCOPE} AND claim_token = $6 RETURNING 1`,
      [...scopeParams(scope), token, answer.status, JSON.stringify(answer.body ?? null), JSON.stringify(answer.headers)],
    );
    return rows.length === 1;
  }

  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.sql.query(`DELETE FROM idempotency_keys WHERE ${SCOPE} AND claim_token = $6`, [...scopeParams(scope), token]);
  }

  async deleteCreatedBefore(before: Date): Promise<number> {
    return (await this.sql.query("DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1", [before])).length;
  }
}
