/** The memory persistence's rollback beyond the store contract: what only one process's memory can get wrong. */
import { describe, expect, it } from "vitest";
import type { OutboxEvent } from "../../../server/platform/events.js";
import { MemoryEventStore } from "../../../server/store/memory/memory-event-store.js";
import { MemoryPersistence } from "../../../server/store/memory/memory-persistence.js";
import { JournaledMap, JournaledSet, runUndoable } from "../../../server/store/memory/undo-journal.js";
import { at, domainRow, uniqueId, userRow } from "./store-contract.js";

const failing = () => {
  throw new Error("the work failed");
};

describe("the memory persistence's rollback", () => {
  it("makes a transaction started within another part of it, undone with it", async () => {
    const persistence = new MemoryPersistence();
    const user = userRow(uniqueId("ptn"), uniqueId("usr"));
    await expect(
      persistence.transaction(async ({ store }) => {
        await store.saveUser(user);
        // Queued behind the unit it belongs to, it would never start.
        await persistence.transaction(({ store }) => store.saveDomain(domainRow(user)));
        failing();
      }),
    ).rejects.toThrow("the work failed");
    expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toBeUndefined();
    expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(0);
  });

  it("keeps what was written outside a unit of work while it ran", async () => {
    const persistence = new MemoryPersistence();
    const partnerId = uniqueId("ptn");
    const [inside, outside] = [userRow(partnerId, uniqueId("usr")), userRow(partnerId, uniqueId("usr"))];
    let insideWritten!: () => void;
    let outsideWritten!: () => void;
    const wroteInside = new Promise<void>((resolve) => (insideWritten = resolve));
    const wroteOutside = new Promise<void>((resolve) => (outsideWritten = resolve));
    const unit = persistence.transaction(async ({ store }) => {
      await store.saveUser(inside);
      insideWritten();
      await wroteOutside;
      failing();
    });
    await wroteInside;
    await persistence.store.saveUser(outside);
    outsideWritten();
    await expect(unit).rejects.toThrow("the work failed");
    expect(await persistence.store.findUser(partnerId, inside.userIdentifier)).toBeUndefined();
    expect(await persistence.store.findUser(partnerId, outside.userIdentifier)).toEqual(outside);
    const page = await persistence.store.listUsers(partnerId, { limit: 10, offset: 0, sort: "created_at", order: "asc" });
    expect(page.users.map(({ user }) => user.userIdentifier)).toEqual([outside.userIdentifier]);
  });

  it("puts back the events a unit's saving forgot past the retention count", async () => {
    const events = new MemoryEventStore({ maxAgeMs: 86_400_000, keepLatest: 8 });
    const partnerId = uniqueId("ptn");
    const event = (n: number): OutboxEvent => ({
      id: `evt_${String(n).padStart(3, "0")}`,
      partnerId,
      type: "user.deleted",
      createdAt: at(`00:00:${String(n).padStart(2, "0")}`),
      payload: { n },
    });
    await events.saveEvents(Array.from({ length: 8 }, (_, n) => event(n)));
    const all = { types: null, createdAfter: null, createdBefore: null, after: null, limit: 20 };
    const before = await events.eventPage(partnerId, all);
    await expect(
      runUndoable(events, async () => {
        await events.saveEvents(Array.from({ length: 4 }, (_, n) => event(10 + n)));
        failing();
      }),
    ).rejects.toThrow("the work failed");
    expect(await events.eventPage(partnerId, all)).toEqual(before);
    expect(await events.findEvent(partnerId, "evt_000")).toEqual(event(0));
  });

  it("restores a set's order and a map's values, keeping what others added meanwhile", async () => {
    const set = new JournaledSet(["a", "b", "c"]);
    const map = new JournaledMap<string, number>();
    map.set("k", 1);
    let added!: () => void;
    const othersAdded = new Promise<void>((resolve) => (added = resolve));
    const unit = runUndoable(set, async () => {
      set.delete("a");
      set.add("d");
      set.delete("c");
      map.set("k", 2);
      map.delete("k");
      map.set("new", 3);
      await othersAdded;
      failing();
    });
    set.add("e");
    added();
    await expect(unit).rejects.toThrow("the work failed");
    expect([...set]).toEqual(["a", "b", "c", "e"]);
    expect([...map]).toEqual([["k", 1]]);
  });
});
