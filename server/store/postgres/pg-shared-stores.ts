/** What every instance on the database shares besides the data: rate-limit counters, sandbox clocks, API keys. */
import type { Environment } from "../../../generated/deployment.js";
import type { ConsumeResult, WindowCounter, WindowStore } from "../../platform/rate-limits/window-store.js";
import type { Admission, AdmittedRequest, RequestAdmission } from "../../partners/keys/request-admission.js";
import type { ApiKeyStore, StoredApiKey } from "../../partners/keys/api-key-store.js";
import type { Scope } from "../../partners/keys/key-grant.js";
import type { KeyRestrictions } from "../../domain/access/key-restrictions.js";
import type { ClockOffsetStore } from "../../domain/sandbox/clock-offset-store.js";
import { type DbRow, decodeApiKeysRow, decodeColumns, decodeComputed } from "../../../generated/db-rows.js";
import { deleteInBatches } from "./batched-deletes.js";
import { ENVIRONMENT_NAMES, oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

/** Fixed-window counters; `consume` is one call of the function the schema defines (migrations/0018_rate_limits_in_one_pass.sql). */
export class PgWindowStore implements WindowStore {
  constructor(private readonly sql: Sql) {}

  async consume(counters: readonly WindowCounter[]): Promise<ConsumeResult> {
    const [row] = await this.sql.query("SELECT counts, refused FROM consume_rate_limits($1::text[], $2::bigint[], $3::integer[])", [
      counters.map((c) => c.key),
      counters.map((c) => c.windowStart),
      counters.map((c) => c.limit),
    ]);
    return decodeComputed(row!, { counts: "number[]", refused: "number[]" });
  }

  async peek(counters: readonly WindowCounter[]): Promise<number[]> {
    const rows = await this.sql.query("SELECT key, window_start, count FROM rate_limit_counters WHERE key = ANY ($1::text[])", [
      counters.map((c) => c.key),
    ]);
    const byKey = new Map(
      rows.map((row) => decodeColumns(row, "rate_limit_counters", ["key", "window_start", "count"])).map((row) => [row.key, row]),
    );
    return counters.map(({ key, windowStart }) => {
      const row = byKey.get(key);
      return row && row.window_start === windowStart ? row.count : 0;
    });
  }

  async forget(scope: string): Promise<void> {
    // The scope's keys, `scope:...`, are the range from "scope:" up to "scope;" (":" + 1) in "C" order.
    await this.sql.query("DELETE FROM rate_limit_counters WHERE key >= $1 AND key < $2", [`${scope}:`, `${scope};`]);
  }

  async forgetWindowsBefore(windowStart: number): Promise<void> {
    await deleteInBatches(this.sql, "rate_limit_counters", "window_start < $1", [windowStart]);
  }
}

/** The rate limits' count, the stored key's check and the clock's read in one call (migrations/0019_request_admission.sql). */
export class PgRequestAdmission implements RequestAdmission {
  constructor(private readonly sql: Sql) {}

  async admit(counters: readonly WindowCounter[], { keyId, clockOf, now }: AdmittedRequest): Promise<Admission> {
    const [row] = await this.sql.query(
      "SELECT key_accepted, counts, refused, clock_offset_ms FROM admit_request($1::text[], $2::bigint[], $3::integer[], $4, $5, $6)",
      [counters.map((c) => c.key), counters.map((c) => c.windowStart), counters.map((c) => c.limit), keyId, now, clockOf],
    );
    const admitted = decodeComputed(row!, { key_accepted: "boolean", counts: "number[]", refused: "number[]", clock_offset_ms: "number" });
    return {
      keyAccepted: admitted.key_accepted,
      counts: admitted.counts,
      refused: admitted.refused,
      clockOffsetMs: admitted.clock_offset_ms,
    };
  }
}

export class PgClockOffsetStore implements ClockOffsetStore {
  constructor(private readonly sql: Sql) {}

  async offsetOf(partnerId: string): Promise<number> {
    const [row] = await this.sql.query("SELECT offset_ms FROM sandbox_clock_offsets WHERE partner_id = $1", [partnerId]);
    return row ? decodeColumns(row, "sandbox_clock_offsets", ["offset_ms"]).offset_ms : 0;
  }

  async advance(partnerId: string, milliseconds: number): Promise<number> {
    const [row] = await this.sql.query(
      `INSERT INTO sandbox_clock_offsets (partner_id, offset_ms) VALUES ($1, $2)
       ON CONFLICT (partner_id) DO UPDATE SET offset_ms = sandbox_clock_offsets.offset_ms + EXCLUDED.offset_ms
       RETURNING offset_ms`,
      [partnerId, milliseconds],
    );
    return decodeColumns(row!, "sandbox_clock_offsets", ["offset_ms"]).offset_ms;
  }

  async reset(partnerId: string): Promise<void> {
    await this.sql.query("DELETE FROM sandbox_clock_offsets WHERE partner_id = $1", [partnerId]);
  }
}

const apiKey = (row: DbRow): StoredApiKey => {
  const r = decodeApiKeysRow(row);
  return {
    id: r.id,
    hash: r.hash,
    partnerId: r.partner_id,
    partnerName: r.partner_name,
    environment: oneOf(r.environment, ENVIRONMENT_NAMES, "api_keys.environment"),
    name: r.name,
    createdAt: r.created_at,
    hint: r.hint,
    lastFour: r.last_four,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    scopes: r.scopes as Scope[] | null,
    restrictions: restrictionsOf(r.restrictions),
  };
};

/** The jsonb of api_keys.restrictions (written from a checked grant) as the key's restrictions. */
function restrictionsOf(value: unknown): KeyRestrictions | null {
  if (value === null || value === undefined) return null;
  const r = value as Record<string, string[] | null>;
  return {
    domains: r.domains ?? null,
    recordNames: r.record_names ?? null,
    recordTypes: r.record_types ?? null,
    clientIps: r.client_ips ?? null,
  };
}

const restrictionsColumn = (restrictions: KeyRestrictions | null) =>
  restrictions &&
  JSON.stringify({
    domains: restrictions.domains,
    record_names: restrictions.recordNames,
    record_types: restrictions.recordTypes,
    client_ips: restrictions.clientIps,
  });

const ACCEPTED = "(expires_at IS NULL OR expires_at > $2)";

export class PgApiKeyStore implements ApiKeyStore {
  constructor(private readonly sql: Sql) {}

  async findKey(hash: string, now: Date): Promise<StoredApiKey | undefined> {
    const [row] = await this.sql.query(`SELECT * FROM api_keys WHERE hash = $1 AND ${ACCEPTED}`, [hash, now]);
    return row && apiKey(row);
  }

  async addKey(key: StoredApiKey): Promise<void> {
    await this.sql.query(
      `INSERT INTO api_keys (hash, id, partner_id, partner_name, environment, name, hint, last_four, created_at, last_used_at, expires_at,
                             scopes, restrictions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)`,
      [
        key.hash,
        key.id,
        key.partnerId,
        key.partnerName,
        key.environment,
        key.name,
        key.hint,
        key.lastFour,
        key.createdAt,
        key.lastUsedAt,
        key.expiresAt,
        key.scopes,
        restrictionsColumn(key.restrictions),
      ],
    );
  }

  async revokeKey(hash: string): Promise<boolean> {
    return (await this.sql.query("DELETE FROM api_keys WHERE hash = $1 RETURNING 1", [hash])).length > 0;
  }

  async keysOf(environment: Environment): Promise<StoredApiKey[]> {
    return (await this.sql.query("SELECT * FROM api_keys WHERE environment = $1 ORDER BY created_at, hash", [environment])).map(apiKey);
  }

  async keysOfPartner(partnerId: string, environment: Environment, now: Date): Promise<StoredApiKey[]> {
    return (
      await this.sql.query(`SELECT * FROM api_keys WHERE partner_id = $1 AND ${ACCEPTED} AND environment = $3 ORDER BY created_at, id`, [
        partnerId,
        now,
        environment,
      ])
    ).map(apiKey);
  }

  async revokeKeyById(partnerId: string, id: string): Promise<boolean> {
    return (await this.sql.query("DELETE FROM api_keys WHERE id = $1 AND partner_id = $2 RETURNING 1", [id, partnerId])).length > 0;
  }

  async expireKey(partnerId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE api_keys SET expires_at = CASE WHEN expires_at IS NULL OR expires_at > $3 THEN $3 ELSE expires_at END
       WHERE id = $1 AND partner_id = $2 RETURNING 1`,
      [id, partnerId, at],
    );
    return rows.length > 0;
  }

  async touchKey(hash: string, at: Date): Promise<void> {
    await this.sql.query("UPDATE api_keys SET last_used_at = $2 WHERE hash = $1 AND (last_used_at IS NULL OR last_used_at < $2)", [
      hash,
      at,
    ]);
  }

  async deleteExpiredKeys(now: Date): Promise<number> {
    return (await this.sql.query("DELETE FROM api_keys WHERE expires_at <= $1 RETURNING 1", [now])).length;
  }
}
