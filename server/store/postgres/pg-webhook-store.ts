/**
 * Webhook endpoints, the outbox of events and their deliveries in PostgreSQL: deliveries claimed
 * with FOR UPDATE SKIP LOCKED, the outbox fanned out under a per-partner advisory lock.
 */
import type { OutboxEvent } from "../../events.js";
import {
  type DeliveryAttempt,
  newDelivery,
  outboxEntries,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookStore,
} from "../../webhooks/webhook-store.js";
import type { Row, Sql } from "./sql-client.js";

const endpoint = (row: Row): WebhookEndpointRow => ({
  id: row.id as string,
  partnerId: row.partner_id as string,
  url: row.url as string,
  events: row.events as WebhookEndpointRow["events"],
  description: row.description as string | null,
  enabled: row.enabled as boolean,
  failing: row.failing as boolean,
  secret: row.secret as string,
  previousSecret:
    row.previous_secret === null ? null : { secret: row.previous_secret as string, expiresAt: row.previous_secret_expires_at as Date },
  createdAt: row.created_at as Date,
  updatedAt: row.updated_at as Date,
});

interface StoredEvent extends Omit<OutboxEvent, "createdAt"> {
  createdAt: string;
}
interface StoredAttempt extends Omit<DeliveryAttempt, "attemptedAt"> {
  attemptedAt: string;
}

const storedEvent = (event: OutboxEvent) => JSON.stringify({ ...event, createdAt: event.createdAt.toISOString() });
const storedAttempts = (attempts: DeliveryAttempt[]) =>
  JSON.stringify(attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })));
const eventOf = (stored: StoredEvent): OutboxEvent => ({ ...stored, createdAt: new Date(stored.createdAt) });

/** The advisory lock of one partner's fan-out: the first key names the purpose, the second the partner. */
const FAN_OUT_LOCK = "hashtext('webhook_outbox')";

const DELIVERY_COLUMNS = "id, endpoint_id, partner_id, event, status, attempts, next_attempt_at, created_at";
const delivery = (row: Row): WebhookDeliveryRow => {
  const event = row.event as StoredEvent;
  return {
    id: row.id as string,
    endpointId: row.endpoint_id as string,
    partnerId: row.partner_id as string,
    event: eventOf(event),
    status: row.status as WebhookDeliveryRow["status"],
    attempts: (row.attempts as StoredAttempt[]).map((attempt) => ({ ...attempt, attemptedAt: new Date(attempt.attemptedAt) })),
    nextAttemptAt: row.next_attempt_at as Date | null,
    createdAt: row.created_at as Date,
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
    const rows = await this.sql.query<{ partner_id: string }>("SELECT DISTINCT partner_id FROM webhook_outbox");
    return rows.map((row) => row.partner_id);
  }

  async dueDeliveriesOf(partnerId: string, now: Date, atMost: number): Promise<number> {
    const [row] = await this.sql.query<{ due: number }>(
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
    return row!.due;
  }

  async fanOutOldest(partnerId: string, limit: number, now: Date): Promise<number> {
    return this.sql.transaction(async (sql) => {
      // One fan-out of a partner at a time across instances, so its deliveries are written in event order.
      const [lock] = await sql.query<{ held: boolean }>(`SELECT pg_try_advisory_xact_lock(${FAN_OUT_LOCK}, hashtext($1)) AS held`, [
        partnerId,
      ]);
      if (!lock!.held) return 0;
      const entries = await sql.query<{ seq: number; event: StoredEvent; endpoint_ids: string[] }>(
        "SELECT seq, event, endpoint_ids FROM webhook_outbox WHERE partner_id = $1 ORDER BY seq LIMIT $2",
        [partnerId, limit],
      );
      if (entries.length === 0) return 0;
      // Held against deletion until the deliveries are written: an endpoint deleted meanwhile gets none.
      const endpoints = new Map(
        (await sql.query("SELECT * FROM webhook_endpoints WHERE partner_id = $1 FOR KEY SHARE", [partnerId])).map((row) => [
          row.id as string,
          endpoint(row),
        ]),
      );
      const deliveries = entries.flatMap(({ seq, event: stored, endpoint_ids }) => {
        const event = eventOf(stored);
        return endpoint_ids.flatMap((id) => {
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
      this.sql.query<{ total: number }>("SELECT count(*)::integer AS total FROM webhook_deliveries WHERE endpoint_id = $1", [endpointId]),
    ]);
    return { deliveries: rows.map(delivery), total: count!.total };
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
    const rows = await this.sql.query<{ endpoint_id: string }>(
      "SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE status = 'pending'",
    );
    return rows.map((row) => row.endpoint_id);
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
