/** The event history in PostgreSQL, shared by every instance (migrations/0003_events.sql). */
import { type DbRow, decodeColumns } from "../../../generated/db-rows.js";
import type { EventType, OutboxEvent } from "../../platform/events.js";
import type { EventPageQuery, EventStore } from "../../domain/events/event-store.js";
import type { RetentionPolicy } from "../../platform/retention-policy.js";
import { deleteInBatches } from "./batched-deletes.js";
import { EVENT_TYPES, jsonObject, oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

const COLUMN_NAMES = ["id", "partner_id", "type", "created_at", "payload"] as const;
const COLUMNS = COLUMN_NAMES.join(", ");

const eventOf = (row: DbRow): OutboxEvent => {
  const r = decodeColumns(row, "events", COLUMN_NAMES);
  return {
    id: r.id,
    partnerId: r.partner_id,
    type: oneOf(r.type, EVENT_TYPES, "events.type"),
    createdAt: r.created_at,
    payload: jsonObject(r.payload, "events.payload"),
  };
};

export class PgEventStore implements EventStore {
  constructor(private readonly sql: Sql) {}

  async saveEvents(events: readonly OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.sql.query(
      `INSERT INTO events (${COLUMNS})
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::jsonb[])`,
      [
        events.map((event) => event.id),
        events.map((event) => event.partnerId),
        events.map((event) => event.type),
        events.map((event) => event.createdAt),
        events.map((event) => JSON.stringify(event.payload)),
      ],
    );
  }

  async findEvent(partnerId: string, id: string): Promise<OutboxEvent | undefined> {
    const [row] = await this.sql.query(`SELECT ${COLUMNS} FROM events WHERE id = $1 AND partner_id = $2`, [id, partnerId]);
    return row && eventOf(row);
  }

  async eventPage(partnerId: string, { types, createdAfter, createdBefore, after, limit }: EventPageQuery): Promise<OutboxEvent[]> {
    const rows = await this.sql.query(
      `SELECT ${COLUMNS} FROM events
       WHERE partner_id = $1
         AND ($2::text[] IS NULL OR type = ANY ($2))
         AND ($3::timestamptz IS NULL OR created_at >= $3)
         AND ($4::timestamptz IS NULL OR created_at < $4)
         AND ($5::timestamptz IS NULL OR (created_at, id) < ($5, $6::text))
       ORDER BY created_at DESC, id DESC LIMIT $7`,
      [partnerId, types, createdAfter, createdBefore, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows.map(eventOf);
  }

  async eventsBetween(
    partnerId: string,
    since: Date,
    until: Date,
    types: readonly EventType[] | null,
    limit: number,
  ): Promise<OutboxEvent[]> {
    const rows = await this.sql.query(
      `SELECT ${COLUMNS} FROM events
       WHERE partner_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::text[] IS NULL OR type = ANY ($4))
       ORDER BY created_at, id LIMIT $5`,
      [partnerId, since, until, types, limit],
    );
    return rows.map(eventOf);
  }

  /**
   * In statements of at most RETENTION_BATCH_ROWS rows: the events older than the age kept
   * (events_by_age), then per partner those beyond its newest kept (events_of_partner). No
   * statement reads the table; the space freed is made reusable at once (PGlite has no autovacuum).
   */
  async prune(now: Date, { maxAgeMs, keepLatest }: RetentionPolicy): Promise<number> {
    let deleted = await deleteInBatches(this.sql, "events", "created_at < $1", [new Date(now.getTime() - maxAgeMs)]);
    // One row per partner, each found by one index probe (a skip scan), with the oldest event it keeps by count.
    const partners = await this.sql.query(
      `WITH RECURSIVE partners AS (
         (SELECT partner_id FROM events ORDER BY partner_id LIMIT 1)
         UNION ALL
         SELECT next.partner_id FROM partners, LATERAL (
           SELECT e.partner_id FROM events AS e WHERE e.partner_id > partners.partner_id ORDER BY e.partner_id LIMIT 1) AS next
       )
       SELECT partners.partner_id, kept.created_at, kept.id FROM partners
       JOIN LATERAL (
         SELECT created_at, id FROM events AS e WHERE e.partner_id = partners.partner_id
         ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1) AS kept ON true`,
      [Math.max(0, keepLatest - 1)],
    );
    for (const row of partners) {
      // The JOIN LATERAL returns only partners with an event to keep by count, so none of these is null.
      const partner = decodeColumns(row, "events", ["partner_id", "created_at", "id"]);
      deleted += await deleteInBatches(this.sql, "events", "partner_id = $1 AND (created_at, id) < ($2::timestamptz, $3::text)", [
        partner.partner_id,
        partner.created_at,
        partner.id,
      ]);
    }
    if (deleted > 0) await this.sql.exec("VACUUM (SKIP_LOCKED) events");
    return deleted;
  }
}
