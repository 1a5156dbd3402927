/**
 * The request log in this process's memory (the memory persistence). Each partner and
 * environment has its own log, indexed by status class, route and request id, so a filtered page
 * reads the entries that match rather than the whole log; each log is bounded as it grows, so a
 * flood of requests costs no memory beyond the retention's count.
 */
import type { RetentionPolicy } from "../../platform/retention-policy.js";
import {
  compareEntries,
  matchesFilter,
  REQUEST_LOG_RETENTION,
  refusalKey,
  refusalMinute,
  type LoggedRequest,
  type RequestHistoryStore,
  type RequestLogPosition,
  type RequestPageQuery,
  type RequestRecord,
} from "../../partners/request-history/request-history-store.js";

/** Entries oldest first, forgotten from the oldest: an array read from a moving start, compacted now and then. */
class EntryQueue {
  private items: LoggedRequest[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  oldest(): LoggedRequest | undefined {
    return this.items[this.head];
  }

  /** Entries mostly arrive in order: appending then, not splicing. */
  insert(entry: LoggedRequest): void {
    const last = this.items[this.items.length - 1];
    if (this.length === 0 || compareEntries(last!, entry) <= 0) this.items.push(entry);
    else this.items.splice(this.indexOf(entry), 0, entry);
  }

  removeOldest(): LoggedRequest | undefined {
    const entry = this.items[this.head];
    if (entry === undefined) return undefined;
    this.head++;
    // Copying the rest away once the dropped part is the larger keeps each removal O(1) on average.
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** The index of the first entry not earlier than the position. */
  private indexOf(position: RequestLogPosition): number {
    let low = this.head;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareEntries(this.items[middle]!, position) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Newest first, from the newest entry earlier than `before` (or the newest). */
  *newestFirst(before: RequestLogPosition | null): Generator<LoggedRequest> {
    for (let i = (before === null ? this.items.length : this.indexOf(before)) - 1; i >= this.head; i--) yield this.items[i]!;
  }
}

/** One partner's log of one environment, with its indexes. */
class PartnerLog {
  readonly all = new EntryQueue();
  readonly byStatusClass = new Map<number, EntryQueue>();
  readonly byRoute = new Map<string, EntryQueue>();
  readonly byRequestId = new Map<string, LoggedRequest>();
  /** The entries of refusals of the newest minute refused, by what makes them one. */
  private openRefusals = new Map<string, LoggedRequest>();
  private openMinute = Number.NaN;

  add(record: RequestRecord): void {
    const key = refusalKey(record);
    if (key !== null) {
      const minute = refusalMinute(record.at).getTime();
      if (minute !== this.openMinute) {
        this.openRefusals = new Map();
        this.openMinute = minute;
      }
      const open = this.openRefusals.get(key);
      if (open !== undefined && this.byRequestId.get(open.requestId) === open) {
        open.count += record.count ?? 1;
        return;
      }
    }
    const entry: LoggedRequest = { ...record, at: new Date(record.at.getTime()), count: record.count ?? 1 };
    if (key !== null) this.openRefusals.set(key, entry);
    this.all.insert(entry);
    indexed(this.byStatusClass, Math.floor(entry.status / 100)).insert(entry);
    if (entry.route !== null) indexed(this.byRoute, entry.route).insert(entry);
    this.byRequestId.set(entry.requestId, entry);
  }

  /** Forgets the oldest entry from the log and its indexes (in each, it is the oldest too). */
  removeOldest(): void {
    const entry = this.all.removeOldest();
    if (entry === undefined) return;
    removeOldestOf(this.byStatusClass, Math.floor(entry.status / 100));
    if (entry.route !== null) removeOldestOf(this.byRoute, entry.route);
    this.byRequestId.delete(entry.requestId);
  }

  /** Forgets what the policy does not keep at `now`; answers how many entries. */
  trim(now: number, { maxAgeMs, keepLatest }: RetentionPolicy): number {
    let removed = 0;
    for (let oldest = this.all.oldest(); oldest !== undefined; oldest = this.all.oldest()) {
      if (this.all.length <= keepLatest && now - oldest.at.getTime() <= maxAgeMs) break;
      this.removeOldest();
      removed++;
    }
    return removed;
  }

  /** The smallest list holding every entry the filter can match. */
  candidates(query: RequestPageQuery): Iterable<LoggedRequest> {
    const { statusClass, route, requestId } = query.filter;
    if (requestId !== undefined) {
      const entry = this.byRequestId.get(requestId);
      return entry !== undefined && (query.before === null || compareEntries(entry, query.before) < 0) ? [entry] : [];
    }
    const lists = [this.all];
    if (statusClass !== undefined) lists.push(this.byStatusClass.get(statusClass) ?? new EntryQueue());
    if (route !== undefined) lists.push(this.byRoute.get(route) ?? new EntryQueue());
    const smallest = lists.reduce((a, b) => (b.length < a.length ? b : a));
    return smallest.newestFirst(query.before);
  }
}

function indexed<K>(index: Map<K, EntryQueue>, key: K): EntryQueue {
  let queue = index.get(key);
  if (queue === undefined) index.set(key, (queue = new EntryQueue()));
  return queue;
}

function removeOldestOf<K>(index: Map<K, EntryQueue>, key: K): void {
  const queue = index.get(key);
  queue?.removeOldest();
  if (queue?.length === 0) index.delete(key);
}

const copy = (entry: LoggedRequest): LoggedRequest => ({ ...entry, at: new Date(entry.at.getTime()) });

export class MemoryRequestHistoryStore implements RequestHistoryStore {
  private readonly logs = new Map<string, PartnerLog>();

  /** `policy` bounds each log as it grows; the sweep's prune applies the same one by the clock. */
  constructor(private readonly policy: RetentionPolicy = REQUEST_LOG_RETENTION) {}

  async append(records: readonly RequestRecord[]): Promise<void> {
    for (const record of records) {
      const key = `${record.environment}:${record.partnerId}`;
      let log = this.logs.get(key);
      if (!log) this.logs.set(key, (log = new PartnerLog()));
      log.add(record);
      log.trim(record.at.getTime(), this.policy);
    }
  }

  async page(query: RequestPageQuery): Promise<LoggedRequest[]> {
    const log = this.logs.get(`${query.environment}:${query.partnerId}`);
    const found: LoggedRequest[] = [];
    if (!log) return found;
    for (const entry of log.candidates(query)) {
      if (found.length >= query.limit) break;
      if (matchesFilter(entry, query.filter)) found.push(copy(entry));
    }
    return found;
  }

  async prune(now: Date, policy: RetentionPolicy): Promise<number> {
    let forgotten = 0;
    for (const [key, log] of this.logs) {
      forgotten += log.trim(now.getTime(), policy);
      if (log.all.length === 0) this.logs.delete(key);
    }
    return forgotten;
  }
}
