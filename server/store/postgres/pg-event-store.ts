/** The event history in PostgreSQL, shared by every instance (migrations/0003_events.sql). */
import type { EventType, OutboxEvent } from "../../events.js";
import type { EventPageQuery, EventStore } from "../../event-history/event-store.js";
import type { Row, Sql } from "./sql-client.js";

const COLUMNS = "id, partner_id, type, created_at, payload";

const eventOf = (row: Row): OutboxEvent => ({
  id: row.id as string,
  partnerId: row.partner_id as string,
  type: row.type as EventType,
  createdAt: row.created_at as Date,
  payload: row.payload as Record<string, unknown>,
});

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

  async deleteCreatedBefore(before: Date): Promise<number> {
    return (await this.sql.query("DELETE FROM events WHERE created_at < $1 RETURNING 1", [before])).length;
  }
}
