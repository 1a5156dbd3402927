/** The event history in this process's memory (the memory persistence). */
import type { EventType, OutboxEvent } from "../../platform/events.js";
import type { RetentionPolicy } from "../../platform/retention-policy.js";
import { JournaledMap, journaling, recordUndo } from "./undo-journal.js";
import { EVENT_RETENTION, isEarlier, type EventPageQuery, type EventStore } from "../../domain/events/event-store.js";

/**
 * A copy the store and its callers cannot change for each other. The payload goes through JSON, as
 * the PostgreSQL store keeps it (jsonb), so both stores give back the same values; it is also half
 * the cost of structuredClone, which every write paid per event (bench/results/profiles/).
 */
const copy = (event: OutboxEvent): OutboxEvent => ({
  id: event.id,
  partnerId: event.partnerId,
  type: event.type,
  createdAt: new Date(event.createdAt.getTime()),
  payload: JSON.parse(JSON.stringify(event.payload)) as Record<string, unknown>,
});

/**
 * Its maps are journaled and its lists' changes undone by their inverse (store/memory/undo-journal.ts), so
 * the events of a unit of work that throws are gone with it.
 */
export class MemoryEventStore implements EventStore {
  /** Per partner, its events oldest first: events mostly arrive in that order, so inserting is mostly appending. */
  private readonly byPartner = new JournaledMap<string, OutboxEvent[]>();
  private readonly byId = new JournaledMap<string, OutboxEvent>();

  /**
   * `policy` bounds each partner's list as it grows (the sweep's prune applies it by the clock):
   * past its count by an eighth, the oldest go at once, so a removal is one splice per many events.
   */
  constructor(private readonly policy: RetentionPolicy = EVENT_RETENTION) {}

  async saveEvents(events: readonly OutboxEvent[]): Promise<void> {
    for (const event of events) {
      const stored = copy(event);
      let list = this.byPartner.get(event.partnerId);
      if (!list) this.byPartner.set(event.partnerId, (list = []));
      // Events mostly arrive in order: appending then, not splicing into a list that only grows.
      const index = this.indexAfter(list, stored);
      if (index === list.length) list.push(stored);
      else list.splice(index, 0, stored);
      if (journaling()) recordUndo(() => this.remove(list, stored));
      this.byId.set(event.id, stored);
      if (list.length > this.policy.keepLatest + (this.policy.keepLatest >>> 3))
        this.forgetOldest(list, list.length - this.policy.keepLatest);
    }
  }

  private forgetOldest(list: OutboxEvent[], count: number): void {
    const forgotten = list.splice(0, count);
    if (journaling()) recordUndo(() => list.unshift(...forgotten));
    for (const event of forgotten) this.byId.delete(event.id);
  }

  /** Takes an event out of its list, found from the end, where a new one mostly is. */
  private remove(list: OutboxEvent[], event: OutboxEvent): void {
    const at = list.lastIndexOf(event);
    if (at >= 0) list.splice(at, 1);
  }

  /** Where an event goes in a list oldest first: after every event earlier than it. */
  private indexAfter(list: readonly OutboxEvent[], event: OutboxEvent): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (isEarlier(list[middle]!, event)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  async findEvent(partnerId: string, id: string): Promise<OutboxEvent | undefined> {
    const event = this.byId.get(id);
    return event && event.partnerId === partnerId ? copy(event) : undefined;
  }

  async eventPage(partnerId: string, { types, createdAfter, createdBefore, after, limit }: EventPageQuery): Promise<OutboxEvent[]> {
    const list = this.byPartner.get(partnerId) ?? [];
    // Newest first: walk back from the first event not before the page's start.
    const bounds = [after, createdBefore && { createdAt: createdBefore, id: "" }].filter((bound) => bound !== null);
    let index = list.length;
    for (const bound of bounds) index = Math.min(index, this.indexAfter(list, { ...list[0]!, ...bound }));
    const page: OutboxEvent[] = [];
    for (let i = index - 1; i >= 0 && page.length < limit; i--) {
      const event = list[i]!;
      if (createdAfter && event.createdAt < createdAfter) break;
      if (types === null || types.includes(event.type)) page.push(copy(event));
    }
    return page;
  }

  async eventsBetween(
    partnerId: string,
    since: Date,
    until: Date,
    types: readonly EventType[] | null,
    limit: number,
  ): Promise<OutboxEvent[]> {
    const list = this.byPartner.get(partnerId) ?? [];
    const found: OutboxEvent[] = [];
    for (
      let i = list.length === 0 ? 0 : this.indexAfter(list, { ...list[0]!, createdAt: since, id: "" });
      i < list.length && found.length < limit;
      i++
    ) {
      const event = list[i]!;
      if (event.createdAt >= until) break;
      if (types === null || types.includes(event.type)) found.push(copy(event));
    }
    return found;
  }

  async prune(now: Date, { maxAgeMs, keepLatest }: RetentionPolicy): Promise<number> {
    const before = new Date(now.getTime() - maxAgeMs);
    let deleted = 0;
    for (const [partnerId, list] of this.byPartner) {
      const old = list.length === 0 ? 0 : this.indexAfter(list, { ...list[0]!, createdAt: before, id: "" });
      const end = Math.max(old, list.length - keepLatest);
      this.forgetOldest(list, end);
      deleted += end;
      if (list.length === 0) this.byPartner.delete(partnerId);
    }
    return deleted;
  }
}
