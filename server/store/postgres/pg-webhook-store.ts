/** Webhook endpoints and the outbox of their deliveries in PostgreSQL, claimed with FOR UPDATE SKIP LOCKED. */
import type { OutboxEvent } from "../../events.js";
import type { DeliveryAttempt, WebhookDeliveryRow, WebhookEndpointRow, WebhookStore } from "../../webhooks/webhook-store.js";
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

const DELIVERY_COLUMNS = "id, endpoint_id, partner_id, event, status, attempts, next_attempt_at, created_at";
const delivery = (row: Row): WebhookDeliveryRow => {
  const event = row.event as StoredEvent;
  return {
    id: row.id as string,
    endpointId: row.endpoint_id as string,
    partnerId: row.partner_id as string,
    event: { ...event, createdAt: new Date(event.createdAt) },
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
        JSON.stringify({ ...row.event, createdAt: row.event.createdAt.toISOString() }),
        row.status,
        JSON.stringify(row.attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() }))),
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
           SELECT id FROM webhook_deliveries
           WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2
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
