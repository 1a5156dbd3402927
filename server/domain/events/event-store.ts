/**
 * Every event the service emitted, kept for the events API (GET /api/v1/events) and for
 * delivering a range of them again to an endpoint. Written in the transaction of the change that
 * caused the event, whether or not an endpoint subscribes to its type.
 */
import type { EventType, OutboxEvent } from "../../platform/events.js";
import type { RetentionPolicy } from "../../platform/retention-policy.js";

/**
 * The last fifty thousand events of each partner, none older than thirty days (by the deployment's
 * clock; a sandbox's events are stamped with its own, later one), as docs/webhooks.md and the
 * events API promise. The count bounds what a partner's bulk changes can make a store hold.
 */
export const EVENT_RETENTION: RetentionPolicy = { maxAgeMs: 30 * 86_400_000, keepLatest: 50_000 };

/** An event's place in its partner's list: newest first, ties by id descending. */
export interface EventListPosition {
  createdAt: Date;
  id: string;
}

export interface EventPageQuery {
  /** Only these types; null for every type. */
  types: readonly EventType[] | null;
  /** Created at or after; null for no bound. */
  createdAfter: Date | null;
  /** Created before; null for no bound. */
  createdBefore: Date | null;
  after: EventListPosition | null;
  limit: number;
}

export interface EventStore {
  saveEvents(events: readonly OutboxEvent[]): Promise<void>;
  findEvent(partnerId: string, id: string): Promise<OutboxEvent | undefined>;
  /** At most `limit` of the partner's events the query selects, newest first, after `query.after`. */
  eventPage(partnerId: string, query: EventPageQuery): Promise<OutboxEvent[]>;
  /** At most `limit` of the partner's events created in [since, until) of the types (null: all), oldest first. */
  eventsBetween(partnerId: string, since: Date, until: Date, types: readonly EventType[] | null, limit: number): Promise<OutboxEvent[]>;
  /** Forgets what the policy does not keep at `now` (created before its age, or beyond each partner's newest it keeps); returns how many. */
  prune(now: Date, policy: RetentionPolicy): Promise<number>;
}

/** Whether `a` comes before `b` in time order (oldest first; ties by id). */
export const isEarlier = (a: EventListPosition, b: EventListPosition) =>
  a.createdAt.getTime() < b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id < b.id);
