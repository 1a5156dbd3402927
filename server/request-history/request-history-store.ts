/**
 * The request log of the dashboard: what each partner's API requests were, per environment, and
 * nothing of what they carried. A record holds the time, method, route template, status, request
 * id, duration and the name of the key used: never a body, a header value, a raw path (it holds
 * user identifiers and domain names), a query, a key or a token.
 */
import type { Environment } from "../../generated/deployment.js";

export interface RequestRecord {
  partnerId: string;
  environment: Environment;
  at: Date;
  method: string;
  /** The OpenAPI path template of the operation addressed; null when the request addressed none. */
  route: string | null;
  status: number;
  requestId: string;
  durationMs: number;
  /** The descriptive name of the key the request was made with. */
  keyName: string;
}

/** A record as read back, with its place in the log (newer records have larger ones). */
export interface LoggedRequest extends RequestRecord {
  seq: number;
}

export type StatusClass = 2 | 3 | 4 | 5;

export interface RequestFilter {
  statusClass?: StatusClass;
  route?: string;
  requestId?: string;
}

export interface RequestPageQuery {
  partnerId: string;
  environment: Environment;
  filter: RequestFilter;
  /** Only records older than this place; null from the newest. */
  before: number | null;
  limit: number;
}

/** How much is kept: every record younger than `maxAgeMs`, and at least the newest `keepLatest` of each partner and environment. */
export interface RetentionPolicy {
  maxAgeMs: number;
  keepLatest: number;
}

/** Seven days or ten thousand requests, whichever holds more, as the dashboard promises. */
export const REQUEST_LOG_RETENTION: RetentionPolicy = { maxAgeMs: 7 * 86_400_000, keepLatest: 10_000 };

export interface RequestHistoryStore {
  append(records: readonly RequestRecord[]): Promise<void>;
  /** Newest first, at most `limit`. */
  page(query: RequestPageQuery): Promise<LoggedRequest[]>;
  /** Forgets what the policy no longer keeps; answers how many records it forgot. */
  prune(now: Date, policy: RetentionPolicy): Promise<number>;
}

export const matchesFilter = (record: RequestRecord, { statusClass, route, requestId }: RequestFilter) =>
  (statusClass === undefined || Math.floor(record.status / 100) === statusClass) &&
  (route === undefined || record.route === route) &&
  (requestId === undefined || record.requestId === requestId);

export class MemoryRequestHistoryStore implements RequestHistoryStore {
  /** Oldest first, per partner and environment. */
  private readonly logs = new Map<string, LoggedRequest[]>();
  private seq = 0;

  constructor(private readonly policy: RetentionPolicy = REQUEST_LOG_RETENTION) {}

  async append(records: readonly RequestRecord[]): Promise<void> {
    for (const record of records) {
      const key = `${record.environment}:${record.partnerId}`;
      let log = this.logs.get(key);
      if (!log) this.logs.set(key, (log = []));
      log.push({ ...record, seq: ++this.seq });
      // Bounded as it grows: beyond the newest kept, the oldest goes once it is past the age kept.
      if (log.length > this.policy.keepLatest && record.at.getTime() - log[0]!.at.getTime() > this.policy.maxAgeMs) log.shift();
    }
  }

  async page({ partnerId, environment, filter, before, limit }: RequestPageQuery): Promise<LoggedRequest[]> {
    const log = this.logs.get(`${environment}:${partnerId}`) ?? [];
    const found: LoggedRequest[] = [];
    for (let i = log.length - 1; i >= 0 && found.length < limit; i--) {
      const record = log[i]!;
      if ((before === null || record.seq < before) && matchesFilter(record, filter)) found.push({ ...record });
    }
    return found;
  }

  async prune(now: Date, { maxAgeMs, keepLatest }: RetentionPolicy): Promise<number> {
    let forgotten = 0;
    for (const log of this.logs.values()) {
      let drop = 0;
      while (log.length - drop > keepLatest && now.getTime() - log[drop]!.at.getTime() > maxAgeMs) drop++;
      log.splice(0, drop);
      forgotten += drop;
    }
    return forgotten;
  }
}
