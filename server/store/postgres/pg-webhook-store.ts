/**
 * Webhook endpoints, the outbox of events and their deliveries in PostgreSQL: deliveries claimed
 * with FOR UPDATE SKIP LOCKED, the outbox fanned out under a per-partner advisory lock.
 */
import {
  type DbRow,
  decodeColumns,
  decodeComputed,
  decodeWebhookEndpointsRow,
  type WebhookEndpointsRow,
} from "../../../generated/db-rows.js";
import type { OutboxEvent } from "../../platform/events.js";
import {
  type DeliveryAttempt,
  newDelivery,
  outboxEntries,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookStore,
} from "../../domain/webhooks/webhook-store.js";
import {
  allOf,
  DELIVERY_STATUSES,
  EVENT_TYPES,
  jsonArray,
  jsonObject,
  jsonStrings,
  oneOf,
  SUBSCRIBABLE_EVENT_TYPES,
} from "./column-values.js";
import type { Sql } from "./sql-client.js";

/** The rotated-out secret: saved with its end, or both null. */
function previousSecret(r: WebhookEndpointsRow): WebhookEndpointRow["previousSecret"] {
  if (r.previous_secret === null) return null;
  if (r.previous_secret_expires_at === null) throw new Error("webhook_endpoints.previous_secret_expires_at: null beside a previous secret");
  return { secret: r.previous_secret, expiresAt: r.previous_secret_expires_at };
}

const endpoint = (row: DbRow): WebhookEndpointRow => {
  const r = decodeWebhookEndpointsRow(row);
  return {
    id: r.id,
    partnerId: r.partner_id,
    url: r.url,
    events: r.events === null ? null : allOf(r.events, SUBSCRIBABLE_EVENT_TYPES, "webhook_endpoints.events"),
    description: r.description,
    enabled: r.enabled,
    failing: r.failing,
    secret: r.secret,
    previousSecret: previousSecret(r),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
};

/** An event as a jsonb column keeps it (webhook_outbox.event, webhook_deliveries.event): its time in ISO 8601. */
const storedEvent = (event: OutboxEvent) => JSON.stringify({ ...event, createdAt: event.createdAt.toISOString() });
const storedAttempts = (attempts: DeliveryAttempt[]) =>
  JSON.stringify(attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })));

function eventOf(stored: unknown, column: string): OutboxEvent {
  const object = jsonObject(stored, column);
  const fields = decodeComputed(object, { id: "string", partnerId: "string", type: "string", createdAt: "string" }, column);
  return {
    id: fields.id,
    partnerId: fields.partnerId,
    type: oneOf(fields.type, EVENT_TYPES, `${column}.type`),
    createdAt: new Date(fields.createdAt),
    payload: jsonObject(object.payload, `${column}.payload`),
  };
}

const attemptsOf = (stored: unknown): DeliveryAttempt[] =>
  jsonArray(stored, "webhook_deliveries.attempts").map((item) => {
    const attempt = decodeComputed(
      jsonObject(item, "webhook_deliveries.attempts[]"),
      { attemptedAt: "string", statusCode: "number | null", error: "string | null", durationMs: "number" },
      "webhook_deliveries.attempts[]",
    );
    return { ...attempt, attemptedAt: new Date(attempt.attemptedAt) };
  });

/** The advisory lock of one partner's fan-out: the first key names the purpose, the second the partner. */
const FAN_OUT_LOCK = "hashtext('webhook_outbox')";

const DELIVERY_COLUMN_NAMES = ["id", "endpoint_id", "partner_id", "event", "status", "attempts", "next_attempt_at", "created_at"] as const;
const DELIVERY_COLUMNS = DELIVERY_COLUMN_NAMES.join(", ");
const delivery = (row: DbRow): WebhookDeliveryRow => {
  const r = decodeColumns(row, "webhook_deliveries", DELIVERY_COLUMN_NAMES);
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    partnerId: r.partner_id,
    event: eventOf(r.event, "webhook_deliveries.event"),
    status: oneOf(r.status, DELIVERY_STATUSES, "webhook_deliveries.status"),
    attempts: attemptsOf(r.attempts),
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
  };
};

export class PgWebhookStore implements WebhookStore {
  constructor(private readonly sql: Sql) {}

  async saveEndpoint(row: WebhookEndpointRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO webhook_endpoints (id, partner_id, url, events, description, enabled, failing, secret, previous_secret,
         previous_secret_expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (id) DO UPDATE SET
         url = EXCLUDED.url, events = EXCLUDED.events, description = EXCLUDED.description, enabled = EXCLUDED.enabled,
         failing = EXCLUDED.failing, secret = EXCLUDED.secret, previous_secret = EXCLUDED.previous_secret,
         previous_secret_expires_at = EXCLUDED.previous_secret_expires_at, updated_at = EXCLUDED.updated_at`,
      [
        row.id,
        row.partnerId,
        row.url,
        row.events,
        row.description,
        row.enabled,
        row.failing,
        row.secret,
        row.previousSecret?.secret ?? null,
        row.previousSecret?.expiresAt ?? null,
        row.createdAt,
        row.updatedAt,
      ],
    );
  }

  async findEndpoint(id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM webhook_endpoints WHERE id = $1", [id]);
    return row && endpoint(row);
  }

  async endpointsOf(partnerId: string): Promise<WebhookEndpointRow[]> {
    return (await this.sql.query("SELECT * FROM webhook_endpoints WHERE partner_id = $1 ORDER BY seq", [partnerId])).map(endpoint);
  }

  async deleteEndpoint(id: string): Promise<void> {
    // Its deliveries go with it (ON DELETE CASCADE).
    await this.sql.query("DELETE FROM webhook_endpoints WHERE id = $1", [id]);
  }

  async markEndpointFailing(id: string, failing: boolean): Promise<void> {
    await this.sql.query("UPDATE webhook_endpoints SET failing = $2 WHERE id = $1", [id, failing]);
  }

  async recordAttempt(row: WebhookDeliveryRow): Promise<boolean> {
    // An UPDATE, never an insert: a delivery deleted with its endpoint during the attempt stays deleted.
    const updated = await this.sql.query(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, claimed_until = NULL
       WHERE id = $1 RETURNING 1`,
      [row.id, row.status, storedAttempts(row.attempts), row.nextAttemptAt],
    );
    return updated.length > 0;
  }

  async addToOutbox(events: readonly OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    const entries = await outboxEntries(this, events);
    if (entries.length === 0) return;
    // One statement whatever the number of events: a change set's thousand is one round trip.
    await this.sql.query(
      `INSERT INTO webhook_outbox (partner_id, event, endpoint_ids)
       SELECT partner_id, event, endpoint_ids FROM unnest($1::text[], $2::jsonb[], $3::jsonb[]) WITH ORDINALITY AS e(partner_id, event, endpoint_ids, n)
       ORDER BY n`,
      [
        entries.map(({ event }) => event.partnerId),
        entries.map(({ event }) => storedEvent(event)),
        entries.map(({ endpointIds }) => JSON.stringify(endpointIds)),
      ],
    );
  }

  async partnersWithOutbox(): Promise<string[]> {
    const rows = await this.sql.query("SELECT DISTINCT partner_id FROM webhook_outbox");
    return rows.map((row) => decodeColumns(row, "webhook_outbox", ["partner_id"]).partner_id);
  }

  async dueDeliveriesOf(partnerId: string, now: Date, atMost: number): Promise<number> {
    const [row] = await this.sql.query(
      // Only those no older outbox entry holds back: entries committed out of their numbers' order
      // hold back the deliveries fanned out before them, which must not stop their own fan-out.
      `SELECT count(*)::integer AS due FROM (
         SELECT 1 FROM webhook_deliveries
         WHERE partner_id = $1 AND status = 'pending' AND next_attempt_at <= $2
           AND seq < coalesce((SELECT min(seq) FROM webhook_outbox WHERE partner_id = $1), 9223372036854775807)
         LIMIT $3
       ) AS due`,
      [partnerId, now, atMost],
    );
    return decodeComputed(row!, { due: "number" }).due;
  }

  async fanOutOldest(partnerId: string, limit: number, now: Date): Promise<number> {
    return this.sql.transaction(async (sql) => {
      // One fan-out of a partner at a time across instances, so its deliveries are written in event order.
      const [lock] = await sql.query(`SELECT pg_try_advisory_xact_lock(${FAN_OUT_LOCK}, hashtext($1)) AS held`, [partnerId]);
      if (!decodeComputed(lock!, { held: "boolean" }).held) return 0;
      const entries = (
        await sql.query("SELECT seq, event, endpoint_ids FROM webhook_outbox WHERE partner_id = $1 ORDER BY seq LIMIT $2", [
          partnerId,
          limit,
        ])
      ).map((row) => decodeColumns(row, "webhook_outbox", ["seq", "event", "endpoint_ids"]));
      if (entries.length === 0) return 0;
      // Held against deletion until the deliveries are written: an endpoint deleted meanwhile gets none.
      const endpoints = new Map(
        (await sql.query("SELECT * FROM webhook_endpoints WHERE partner_id = $1 FOR KEY SHARE", [partnerId])).map((row) => {
          const target = endpoint(row);
          return [target.id, target];
        }),
      );
      const deliveries = entries.flatMap(({ seq, event: stored, endpoint_ids }) => {
        const event = eventOf(stored, "webhook_outbox.event");
        return jsonStrings(endpoint_ids, "webhook_outbox.endpoint_ids").flatMap((id) => {
          const target = endpoints.get(id);
          return target ? [{ seq, row: newDelivery(target, event, now) }] : [];
        });
      });
      // Each delivery takes its entry's number (the outbox draws from the deliveries' sequence).
      if (deliveries.length > 0)
        await sql.query(
          `INSERT INTO webhook_deliveries (seq, id, endpoint_id, partner_id, event, status, attempts, next_attempt_at, created_at)
           OVERRIDING SYSTEM VALUE
           SELECT seq, id, endpoint_id, $3, event, 'pending', '[]'::jsonb, $4, $4
           FROM unnest($1::text[], $2::text[], $5::jsonb[], $6::bigint[]) AS d(id, endpoint_id, event, seq)`,
          [
            deliveries.map((d) => d.row.id),
            deliveries.map((d) => d.row.endpointId),
            partnerId,
            now,
            deliveries.map((d) => storedEvent(d.row.event)),
            deliveries.map((d) => d.seq),
          ],
        );
      await sql.query("DELETE FROM webhook_outbox WHERE seq = ANY ($1::bigint[])", [entries.map((entry) => entry.seq)]);
      return entries.length;
    }, "read committed");
  }

  async saveDelivery(row: WebhookDeliveryRow): Promise<void> {
    // Saving ends a claim: the attempt it was taken for is recorded.
    await this.sql.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, partner_id, event, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET
         status = EXCLUDED.status, attempts = EXCLUDED.attempts, next_attempt_at = EXCLUDED.next_attempt_at, claimed_until = NULL`,
      [
        row.id,
        row.endpointId,
        row.partnerId,
        storedEvent(row.event),
        row.status,
        storedAttempts(row.attempts),
        row.nextAttemptAt,
        row.createdAt,
      ],
    );
  }

  async findDelivery(id: string): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.sql.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]);
    return row && delivery(row);
  }

  async deliveriesOf(endpointId: string, { limit, offset }: { limit: number; offset: number }) {
    const [rows, [count]] = await Promise.all([
      this.sql.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`, [
        endpointId,
        limit,
        offset,
      ]),
      this.sql.query("SELECT count(*)::integer AS total FROM webhook_deliveries WHERE endpoint_id = $1", [endpointId]),
    ]);
    return { deliveries: rows.map(delivery), total: decodeComputed(count!, { total: "number" }).total };
  }

  async claimDueDelivery(endpointId: string, now: Date, leaseMs: number): Promise<WebhookDeliveryRow | undefined> {
    return this.sql.transaction(async (sql) => {
      // The endpoint's row is held while claiming: an instance that finds it held leaves the endpoint to the holder.
      const [held] = await sql.query("SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE SKIP LOCKED", [endpointId]);
      if (!held) return undefined;
      const [busy] = await sql.query(
        "SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND claimed_until > clock_timestamp() LIMIT 1",
        [endpointId],
      );
      if (busy) return undefined;
      const [row] = await sql.query(
        `UPDATE webhook_deliveries SET claimed_until = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
         WHERE id = (
           SELECT id FROM webhook_deliveries d
           WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2
             -- An event that entered the outbox earlier goes first, once fanned out.
             AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.partner_id = d.partner_id AND o.seq < d.seq)
           ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         RETURNING ${DELIVERY_COLUMNS}`,
        [endpointId, now, leaseMs],
      );
      return row && delivery(row);
    }, "read committed");
  }

  async endpointsWithPendingDeliveries(): Promise<string[]> {
    const rows = await this.sql.query("SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE status = 'pending'");
    return rows.map((row) => decodeColumns(row, "webhook_deliveries", ["endpoint_id"]).endpoint_id);
  }

  async deleteFinishedDeliveriesBefore(endpointId: string, before: Date): Promise<number> {
    const rows = await this.sql.query(
      "DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> 'pending' AND created_at < $2 RETURNING 1",
      [endpointId, before],
    );
    return rows.length;
  }

  async allEndpoints(): Promise<WebhookEndpointRow[]> {
    return (await this.sql.query("SELECT * FROM webhook_endpoints ORDER BY seq")).map(endpoint);
  }
}
