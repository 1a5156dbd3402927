/**
 * The request log of the dashboard: what each partner's API requests were, per environment, and
 * nothing of what they carried. A record holds the time, method, route template, status, request
 * id, duration and the name of the key used: never a body, a header value, a raw path (it holds
 * user identifiers and domain names), a query, a key or a token.
 */
import type { Environment } from "../../../generated/deployment.js";
import type { RetentionPolicy } from "../../platform/retention-policy.js";

export type { RetentionPolicy } from "../../platform/retention-policy.js";

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
  /** The stored key's id; null (or absent) for a key of the configuration or the partners file, which `keyName` names. */
  keyId?: string | null;
  /** Whether the key's scopes and restrictions let the request through; absent: `allowed` (records before issue 36). */
  scopeDecision?: "allowed" | "insufficient_scope" | "key_restricted";
  /** The scope missing (`dns:write`, `unrestricted`) or the restriction that refused (`record_names`); null when allowed. */
  scopeDetail?: string | null;
  /** Refusals already counted into this record before it was written (the recorder's buffer); 1 when absent. */
  count?: number;
}

/**
 * An entry of the log: one request, or every request refused for the rate limits (429) with one
 * key, method and route in one minute of the clock, which a flood would otherwise turn into
 * one entry each. An entry of refusals has the time, request id and duration of the first.
 */
export interface LoggedRequest extends Omit<RequestRecord, "count"> {
  /** How many requests the entry stands for: 1, or the refusals of its minute. */
  count: number;
}

/** A place in a partner's log, newest first: by time, then by request id (unique, so no two entries tie). */
export interface RequestLogPosition {
  at: Date;
  requestId: string;
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
  /** Only entries after this place (older); null from the newest. */
  before: RequestLogPosition | null;
  limit: number;
}

/** The last ten thousand requests of each partner and environment, none older than seven days, as the dashboard promises. */
export const REQUEST_LOG_RETENTION: RetentionPolicy = { maxAgeMs: 7 * 86_400_000, keepLatest: 10_000 };

/** The only refusals aggregated: beyond the limits, a client may send without end. */
export const AGGREGATED_STATUS = 429;
const MINUTE_MS = 60_000;

/** The start of the minute a refusal is counted in: entries of refusals are one per key, method, route and minute. */
export const refusalMinute = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);

/** What makes refusals one entry, or null for a request that is an entry of its own. */
export const refusalKey = (record: RequestRecord): string | null =>
  record.status === AGGREGATED_STATUS
    ? JSON.stringify([
        record.partnerId,
        record.environment,
        record.keyName,
        record.method,
        record.route,
        refusalMinute(record.at).getTime(),
      ])
    : null;

/** The records as entries of the log: each alone, except refusals of one key, method, route and minute, counted in the first. */
export function collapseRefusals(records: readonly RequestRecord[]): LoggedRequest[] {
  const entries: LoggedRequest[] = [];
  const open = new Map<string, LoggedRequest>();
  for (const record of records) {
    const count = record.count ?? 1;
    const key = refusalKey(record);
    const same = key === null ? undefined : open.get(key);
    if (same) {
      same.count += count;
      continue;
    }
    const entry = { ...record, count };
    entries.push(entry);
    if (key !== null) open.set(key, entry);
  }
  return entries;
}

export interface RequestHistoryStore {
  append(records: readonly RequestRecord[]): Promise<void>;
  /** Newest first, at most `limit`. */
  page(query: RequestPageQuery): Promise<LoggedRequest[]>;
  /** Forgets what the policy does not keep (older than its age, or beyond the newest it keeps); answers how many entries it forgot. */
  prune(now: Date, policy: RetentionPolicy): Promise<number>;
}

export const matchesFilter = (record: RequestRecord, { statusClass, route, requestId }: RequestFilter) =>
  (statusClass === undefined || Math.floor(record.status / 100) === statusClass) &&
  (route === undefined || record.route === route) &&
  (requestId === undefined || record.requestId === requestId);

/** The log's order, oldest first. */
export const compareEntries = (a: RequestLogPosition, b: RequestLogPosition) =>
  a.at.getTime() - b.at.getTime() || (a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0);
