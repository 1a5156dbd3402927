/**
 * Rollback for the memory persistence: while a unit of work runs, every write it makes to a
 * journaled collection records how to undo itself, and a unit that throws undoes them newest first,
 * leaving each collection as it found it. The journal follows the unit's own asynchronous calls
 * (AsyncLocalStorage), so a write made meanwhile outside it (a delivery attempt, an Idempotency-Key
 * taken) is neither journaled nor undone with it.
 *
 * Each undo is the inverse of one step (put back the value replaced, remove the key added), checked
 * against what the unit left: a value another writer has since replaced, or added to a collection
 * the unit created, is theirs and stays, as a database would apply that writer's change once the
 * unit's locks were released.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One unit of work's journal. */
export class UndoJournal {
  constructor(
    /** What runs the unit (its persistence): a unit it starts within this one joins it. */
    readonly owner: object,
  ) {}
  /** Undos of the unit's writes, oldest first; null once the unit has ended. */
  steps: Array<() => void> | null = [];
  /** Per JournaledSet the unit removed from, the values it removed (the set's order is saved once). */
  removals: Map<object, Set<unknown>> | undefined;
}

const currentJournal = new AsyncLocalStorage<UndoJournal>();

/** The journal of the unit of work this call belongs to, while that unit runs. */
function openJournal(): UndoJournal | undefined {
  const journal = currentJournal.getStore();
  return journal?.steps ? journal : undefined;
}

/** Whether this call belongs to a unit of work of `owner` still running. */
export const inUnitOfWork = (owner: object): boolean => openJournal()?.owner === owner;

/** Records how to undo a write just made, when the write belongs to a running unit of work. */
export function recordUndo(undo: () => void): void {
  openJournal()?.steps?.push(undo);
}

/** Whether writes are being journaled: callers that must compute what to record check this first. */
export const journaling = (): boolean => openJournal() !== undefined;

/**
 * Runs `work` as one unit: should it throw, every journaled write it made is undone, newest first,
 * before the error reaches the caller.
 */
export async function runUndoable<T>(owner: object, work: () => Promise<T>): Promise<T> {
  const journal = new UndoJournal(owner);
  try {
    return await currentJournal.run(journal, work);
  } catch (error) {
    const steps = journal.steps!;
    journal.steps = null;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]!();
    throw error;
  } finally {
    journal.steps = null;
  }
}

/** How many values a collection holds (a Set, Map, array or anything with a `size`); undefined for a row. */
function heldCount(value: unknown): number | undefined {
  if (Array.isArray(value)) return value.length;
  const size = (value as { size?: unknown } | null | undefined)?.size;
  return typeof size === "number" ? size : undefined;
}

/** Moves what `from` holds into `into`, when both are Sets or both arrays; answers whether it could. */
function moveInto(into: unknown, from: unknown): boolean {
  if (into instanceof Set && from instanceof Set) for (const value of from) Set.prototype.add.call(into, value);
  else if (Array.isArray(into) && Array.isArray(from)) into.push(...from);
  else return false;
  return true;
}

/**
 * A Map whose writes within a unit of work are undone should the unit throw. Its values may be
 * collections other writers add to (an index's Set per key): a collection the unit created stays
 * while another writer's values are in it, and one the unit removed takes back what another writer
 * put under its key meanwhile. `holdsNothing` says when a value is an empty collection, or a row.
 */
export class JournaledMap<K, V> extends Map<K, V> {
  constructor(private readonly holdsNothing: (value: V) => boolean = (value) => !heldCount(value)) {
    super();
  }

  override set(key: K, value: V): this {
    const journal = openJournal();
    if (journal) {
      const had = super.has(key);
      const previous = super.get(key);
      journal.steps!.push(() => {
        if (!super.has(key) || super.get(key) !== value) return;
        if (had) super.set(key, previous as V);
        else if (this.holdsNothing(value)) super.delete(key);
      });
    }
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    const journal = openJournal();
    if (journal && super.has(key)) {
      const previous = super.get(key) as V;
      journal.steps!.push(() => {
        if (!super.has(key)) super.set(key, previous);
        else if (super.get(key) !== previous && this.holdsNothing(previous) && moveInto(previous, super.get(key))) super.set(key, previous);
      });
    }
    return super.delete(key);
  }

  override clear(): void {
    for (const key of [...this.keys()]) this.delete(key);
  }
}

/**
 * A Set whose writes within a unit of work are undone should the unit throw, its insertion order
 * with them (sessions oldest first, endpoints in creation order): before the unit's first removal
 * from it, the unit saves its order, which is the one cost a removal adds. What other writers
 * added or removed meanwhile stays so.
 */
export class JournaledSet<T> extends Set<T> {
  override add(value: T): this {
    if (!super.has(value) && openJournal()) recordUndo(() => super.delete(value));
    return super.add(value);
  }

  override delete(value: T): boolean {
    if (!super.has(value)) return false;
    const journal = openJournal();
    if (journal) this.journalRemoval(journal, value);
    return super.delete(value);
  }

  override clear(): void {
    for (const value of [...this.values()]) this.delete(value);
  }

  protected journalRemoval(journal: UndoJournal, value: T): void {
    journal.removals ??= new Map();
    const removed = journal.removals.get(this) as Set<T> | undefined;
    if (removed) {
      removed.add(value);
      return;
    }
    const order = [...super.values()];
    const removedByUnit = new Set([value]);
    journal.removals.set(this, removedByUnit);
    // Runs after the undos of the unit's later writes here: what else is there now, others added.
    journal.steps!.push(() => {
      const saved = new Set(order);
      const othersAdded = [...super.values()].filter((kept) => !saved.has(kept));
      const restored = order.filter((kept) => super.has(kept) || removedByUnit.has(kept));
      super.clear();
      for (const kept of [...restored, ...othersAdded]) super.add(kept);
    });
  }
}

/** A JournaledSet whose order does not matter: a removal undone puts the value back last, and saves nothing. */
export class UnorderedJournaledSet<T> extends JournaledSet<T> {
  protected override journalRemoval(journal: UndoJournal, value: T): void {
    journal.steps!.push(() => Set.prototype.add.call(this, value));
  }
}
