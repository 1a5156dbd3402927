/**
 * Per-instance caches of rows that change rarely, kept right by the database's notifications
 * (notification-listener.ts, migrations/0017_cache_notifications.sql) and used only while those
 * are heard. Fail safe: from the moment the listener is not listening (before its first LISTEN, or
 * once its connection failed) every cache is emptied and every read goes to the database, until a
 * LISTEN succeeds again; the caches then start empty, since what changed meanwhile was not heard.
 *
 * A notification drops the entries it names, or the whole table's when it names no key or cannot
 * be read. A read that started before an invalidation does not store its answer after it: the
 * answer may be the row as it was before the change.
 */
import type { ChangeHandlers } from "./notification-listener.js";

/** The channel migrations/0017_cache_notifications.sql notifies. */
export const CACHE_CHANNEL = "partner_api_cache";

/** Entries of one table an instance keeps at most: the least recently used give way. */
const DEFAULT_MAX_ENTRIES = 10_000;

/** One table's cache: values by key, bounded, with the race of reads against invalidations guarded. */
export class TableCache<V> {
  private readonly entries = new Map<string, V>();
  /**
   * Raised by every invalidation that cannot name the keys it drops (the whole table, a change of
   * state, a write that names rows by something else than their key): no read under way stores.
   */
  private epoch = 0;
  /** Raised by every invalidation of a key, so a read can tell whether its key was invalidated since it began. */
  private invalidations = 0;
  /** Per key with reads under way: how many, and the last invalidation of the key while they were. */
  private readonly underWay = new Map<string, { reads: number; invalidatedAt: number }>();

  constructor(
    private readonly isListening: () => boolean,
    readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value of `key`, or undefined; a hit becomes the most recently used. */
  peek(key: string): V | undefined {
    if (!this.isListening()) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /**
   * The value of `key` from the cache, or from `load`, stored unless the key was invalidated while
   * it ran. Undefined (a row not found, in a cache of found rows only) is answered, never stored.
   */
  async read<L extends V | undefined>(key: string, load: () => Promise<L>): Promise<V | L> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    if (!this.isListening()) return load();
    const epoch = this.epoch;
    const startedAt = this.invalidations;
    const pending = this.underWay.get(key) ?? { reads: 0, invalidatedAt: -1 };
    pending.reads++;
    this.underWay.set(key, pending);
    try {
      const value = await load();
      if (value !== undefined && this.isListening() && this.epoch === epoch && pending.invalidatedAt <= startedAt) this.store(key, value);
      return value;
    } finally {
      if (--pending.reads === 0) this.underWay.delete(key);
    }
  }

  /** Replaces the value of a key already cached (a change this instance made and knows the result of); a key not cached stays so. */
  update(key: string, change: (value: V) => V): void {
    const value = this.entries.get(key);
    if (value !== undefined) this.entries.set(key, change(value));
  }

  /** Runs a write of the rows `dropped` names, then drops them, whatever the write's outcome: a failed one may still have changed them. */
  async afterWrite<T>(dropped: string | ((value: V) => boolean), write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      if (typeof dropped === "string") this.invalidate(dropped);
      else this.invalidateWhere(dropped);
    }
  }

  invalidate(key: string): void {
    this.invalidations++;
    this.entries.delete(key);
    const pending = this.underWay.get(key);
    if (pending) pending.invalidatedAt = this.invalidations;
  }

  /** Drops the entries `matches` picks, and keeps every read under way from storing (its key is unknown until it ends). */
  invalidateWhere(matches: (value: V) => boolean): void {
    this.epoch++;
    for (const [key, value] of this.entries) if (matches(value)) this.entries.delete(key);
  }

  invalidateAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  private store(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** A notification as migrations/0017_cache_notifications.sql sends it. */
interface Change {
  table: string;
  /** The row's cache key; absent: the whole table changed. */
  key?: unknown;
}

function changeOf(payload: string): Change | null {
  try {
    const parsed = JSON.parse(payload) as unknown;
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as Change).table === "string") return parsed as Change;
  } catch {
    // Not a payload of ours: below, it drops every table.
  }
  return null;
}

/**
 * The caches of one instance, by table, and what the listener tells them. A table's cache key is
 * the notification's key as text: a string as it is, anything else (a [partner id, environment]
 * pair) as its JSON (`keyOf`).
 */
export class ChangeCaches implements ChangeHandlers {
  private listening = false;
  private readonly tables = new Map<string, TableCache<unknown>>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get isListening(): boolean {
    return this.listening;
  }

  /** The cache of `table`, made on first use. */
  table<V>(name: string): TableCache<V> {
    let cache = this.tables.get(name);
    if (!cache) this.tables.set(name, (cache = new TableCache<unknown>(() => this.listening, this.maxEntries)));
    return cache as TableCache<V>;
  }

  onState(listening: boolean): void {
    this.listening = listening;
    // Both ways: a cut may have hidden changes, and a new LISTEN hears only what comes after it.
    for (const cache of this.tables.values()) cache.invalidateAll();
  }

  onNotify(payload: string): void {
    const change = changeOf(payload);
    const cache = change && this.tables.get(change.table);
    if (!change) for (const each of this.tables.values()) each.invalidateAll();
    else if (!cache) return;
    else if (change.key === undefined) cache.invalidateAll();
    else cache.invalidate(keyOf(change.key));
  }
}

/** The cache key of a notification's key, or of a row's key columns given as the trigger gives them. */
export const keyOf = (key: unknown): string => (typeof key === "string" ? key : JSON.stringify(key));
