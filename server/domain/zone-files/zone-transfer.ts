/**
 * Zone files through the service (GET .../zone, POST .../zone/import, and the embedded interface):
 * an import is one DNS change set, planned from the file against the zone and run through
 * applyChangeSet, so the record limit, CNAME exclusivity, every record rule and the events are
 * those of change sets; its failures come back as the lines of the file that asked for them.
 */
import type { components } from "../../../generated/types/full.js";
import { DEFAULT_NAMESERVERS } from "../domains/registration.js";
import { isServiceNameservers } from "../domains/delegation.js";
import { recordVisible } from "../access/key-access.js";
import { ApiError } from "../../platform/errors.js";
import { entityTag } from "../../platform/entity-tags.js";
import { applyChangeSet, type ChangeSet } from "../dns/change-sets.js";
import { DEFAULT_TTL } from "../dns/default-ttl.js";
import { isRecordType } from "../dns/record-content.js";
import type { DnsServices } from "../dns/dns-services.js";
import { keyOf, txtText } from "../dns/record-rules.js";
import type { DnsRecordRow, RecordZone } from "../dns/record-store.js";
import { readZoneFile, writeZoneFile, type ZoneFileRecord } from "./zone-file.js";

type RecordType = components["schemas"]["DnsRecordType"];

export type ZoneImportMode = "merge" | "replace";

export interface ZoneImportLine {
  /** 1-based line of the file; 0 for what no line asked for: the deletes of `replace`, and locked records kept. */
  line: number;
  action: "create" | "update" | "delete" | "unchanged" | "skip" | "refuse";
  name: string;
  type: string;
  content: string | null;
  /** The stored record the line matches, updates or deletes; a create's new record once applied; else null. */
  record_id: string | null;
  /** Why a line is skipped or refused; null for the others. */
  code: string | null;
  message: string | null;
}

export interface ZoneImportOutcome {
  applied: boolean;
  lines: ZoneImportLine[];
  counts: Record<ZoneImportLine["action"], number>;
}

export interface ZoneImportOptions {
  mode: ZoneImportMode;
  dryRun: boolean;
  /**
   * The embedded interface's user may not change locked records: an update of one is refused
   * (`record_locked`), and `replace` keeps the locked records the file lacks (a skip at line 0).
   */
  keepLocked?: boolean;
}

/** The most characters an import reads: 1000 records of a few hundred characters, inside the 1 MiB JSON body. */
export const ZONE_FILE_MAX_LENGTH = 524_288;

/** A name holds one of these at most, so a file's other target replaces the stored one. */
const SINGLE_VALUED: ReadonlySet<string> = new Set<RecordType>(["CNAME", "ALIAS"]);

/**
 * What a file's record and a stored one match by. TXT by its text, the strings joined as receivers
 * join them: an export splits a string of more than 255 bytes (non-ASCII text), which reads back as
 * several strings of the same text.
 */
function matchKey(record: Pick<DnsRecordRow, "type" | "name" | "content">): string {
  const key = keyOf(record);
  return `${key.name}\u0000${key.type}\u0000${key.type === "TXT" ? txtText(record.content) : key.content}`;
}
const setText = (name: string, type: string) => `${name.toLowerCase()}\u0000${type}`;

/** The entity tag of a zone: of every record, each field; any change of any record changes it. */
export const zoneTag = (rows: readonly DnsRecordRow[]): string => entityTag({ records: rows });

/**
 * The records a zone file shows: all of them, or for an API key restricted to record names or
 * types only those it may touch, as the record list shows them (server/domain/access/key-access.ts).
 */
export const zoneRecords = async (services: DnsServices, domain: RecordZone): Promise<DnsRecordRow[]> =>
  (await services.store.recordsOfDomain(domain.id)).filter(recordVisible);

/** What each line of the file asks, against the stored records, before any record rule is checked. */
interface Plan {
  lines: ZoneImportLine[];
  set: Required<Pick<ChangeSet, "deletes" | "updates" | "creates">>;
  /** The line of each change set operation, by operation and index. */
  lineOf: { deletes: ZoneImportLine[]; updates: ZoneImportLine[]; creates: ZoneImportLine[] };
}

function planImport(text: string, domain: RecordZone, rows: readonly DnsRecordRow[], options: ZoneImportOptions): Plan {
  const read = readZoneFile(text, domain.name, DEFAULT_NAMESERVERS);
  const plan: Plan = {
    lines: [],
    set: { deletes: [], updates: [], creates: [] },
    lineOf: { deletes: [], updates: [], creates: [] },
  };
  const line = (entry: Omit<ZoneImportLine, "code" | "message" | "record_id"> & Partial<ZoneImportLine>): ZoneImportLine => {
    const full: ZoneImportLine = { record_id: null, code: null, message: null, ...entry };
    plan.lines.push(full);
    return full;
  };
  for (const problem of read.problems)
    line({ line: problem.line, action: "refuse", name: "", type: "", content: null, code: problem.code, message: problem.message });
  for (const skip of read.skipped)
    line({ line: skip.line, action: "skip", name: skip.name, type: skip.type, content: null, code: skip.reason, message: skip.message });

  const unmatched = new Set<DnsRecordRow>(rows);
  const byKey = new Map<string, DnsRecordRow[]>();
  const bySet = new Map<string, DnsRecordRow[]>();
  for (const row of rows) {
    byKey.set(matchKey(row), [...(byKey.get(matchKey(row)) ?? []), row]);
    bySet.set(setText(row.name, row.type), [...(bySet.get(setText(row.name, row.type)) ?? []), row]);
  }
  const firstUnmatched = (candidates: readonly DnsRecordRow[] | undefined) => candidates?.find((row) => unmatched.has(row));
  const seen = new Set<string>();
  const locked = (row: DnsRecordRow) => options.keepLocked === true && row.locked;
  const lockedRefusal = (row: DnsRecordRow) => ({
    action: "refuse" as const,
    record_id: row.id,
    code: "record_locked",
    message: `The ${row.type} record ${row.name} is locked by the partner: it cannot be changed here`,
  });

  for (const record of read.records.map(withServiceTtl)) {
    const base = { line: record.line, name: record.name, type: record.type, content: record.content };
    const type = record.type;
    if (!isRecordType(type)) {
      line({ ...base, action: "skip", code: "unsupported_type", message: `The service does not manage ${type} records` });
      continue;
    }
    const key = matchKey({ type, name: record.name, content: record.content });
    if (seen.has(key)) {
      line({ ...base, action: "skip", code: "duplicate_record", message: "The same record is on an earlier line" });
      continue;
    }
    seen.add(key);
    const same = firstUnmatched(byKey.get(key));
    const single = SINGLE_VALUED.has(type) ? firstUnmatched(bySet.get(setText(record.name, type))) : undefined;
    const stored = same ?? single;
    if (stored) {
      unmatched.delete(stored);
      if (same && stored.ttl === record.ttl && (record.priority === null || stored.priority === record.priority)) {
        line({ ...base, action: "unchanged", record_id: stored.id });
        continue;
      }
      if (locked(stored)) {
        line({ ...base, ...lockedRefusal(stored) });
        continue;
      }
      plan.set.updates.push({
        id: stored.id,
        ...(same ? {} : { content: record.content }),
        ttl: record.ttl,
        ...(record.priority === null ? {} : { priority: record.priority }),
      });
      plan.lineOf.updates.push(line({ ...base, action: "update", record_id: stored.id }));
      continue;
    }
    plan.set.creates.push(createOf(type, record));
    plan.lineOf.creates.push(line({ ...base, action: "create" }));
  }

  if (options.mode === "replace")
    for (const row of unmatched) {
      const base = { line: 0, name: row.name, type: row.type, content: row.content, record_id: row.id };
      if (locked(row)) {
        line({ ...base, action: "skip", code: "record_locked", message: "Locked by the partner: kept though the file lacks it" });
        continue;
      }
      plan.set.deletes.push({ id: row.id });
      plan.lineOf.deletes.push(line({ ...base, action: "delete" }));
    }
  return plan;
}

/**
 * Cloudflare's exports write TTL 1 for "automatic", which is 300 seconds there: read as Variant D's
 * default (the same 300), so such a file imports as Cloudflare served it instead of being refused
 * for a TTL below the minimum.
 */
const AUTOMATIC_TTL = 1;
const withServiceTtl = (record: ZoneFileRecord): ZoneFileRecord =>
  record.ttl === AUTOMATIC_TTL ? { ...record, ttl: DEFAULT_TTL.D } : record;

function createOf(type: RecordType, record: ZoneFileRecord): NonNullable<ChangeSet["creates"]>[number] {
  return {
    type,
    name: record.name,
    content: record.content,
    ttl: record.ttl,
    ...(record.priority === null ? {} : { priority: record.priority }),
  };
}

function countsOf(lines: readonly ZoneImportLine[]): ZoneImportOutcome["counts"] {
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0, skip: 0, refuse: 0 };
  for (const entry of lines) counts[entry.action] += 1;
  return counts;
}

/** Deletes last: what the file names reads in file order, then what `replace` removes. */
const fileOrder = (a: ZoneImportLine, b: ZoneImportLine) => (a.line === 0 ? 1 : 0) - (b.line === 0 ? 1 : 0) || a.line - b.line;

type ChangeError = { operation: "deletes" | "updates" | "creates"; index: number; code: string; message: string };

/** The change set's failures, each on the line of the operation that failed. */
function refuseFailedLines(plan: Plan, error: ApiError): void {
  const failures = (error.details?.errors ?? []) as ChangeError[];
  const refused = new Set<ZoneImportLine>();
  for (const failure of failures) {
    const entry = plan.lineOf[failure.operation][failure.index];
    if (!entry) continue;
    // A line refused for several rules names the first; the others follow once it is fixed.
    if (refused.has(entry)) continue;
    refused.add(entry);
    Object.assign(entry, { action: "refuse", code: failure.code, message: failure.message });
  }
}

/**
 * Imports a zone file into the domain: `merge` adds and updates, `replace` also deletes what the
 * file lacks. All or nothing: a refused line applies nothing (`applied` false, the report says
 * why); `dryRun` answers the plan without writing. Lines are in file order, the deletes last.
 */
export async function importZone(
  services: DnsServices,
  domain: RecordZone,
  text: string,
  options: ZoneImportOptions,
): Promise<ZoneImportOutcome> {
  const rows = await services.store.recordsOfDomain(domain.id);
  const plan = planImport(text, domain, rows, options);
  const refusedBefore = plan.lines.some((entry) => entry.action === "refuse");
  let applied = false;
  try {
    const outcome = await applyChangeSet(services, domain, { ...plan.set, dry_run: options.dryRun || refusedBefore });
    applied = !options.dryRun && !refusedBefore;
    if (applied) outcome.created.forEach((row, index) => Object.assign(plan.lineOf.creates[index]!, { record_id: row.id }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.details?.code !== "change_set_rejected") throw error;
    refuseFailedLines(plan, error);
  }
  const lines = [...plan.lines].sort(fileOrder);
  return { applied, lines, counts: countsOf(lines) };
}

/** The domain's records as a zone file, the same bytes for the same records (the SOA serial is their fingerprint). */
export async function exportZone(
  services: DnsServices,
  domain: RecordZone & { nameservers?: readonly string[] },
): Promise<{ filename: string; text: string; etag: string }> {
  const rows = await zoneRecords(services, domain);
  const etag = zoneTag(rows);
  const body = writeZoneFile(domain.name, rows, {
    nameservers: DEFAULT_NAMESERVERS,
    serial: serialOf(rows),
    defaultTtl: DEFAULT_TTL.D,
    hostmaster: `hostmaster.${domain.name}`,
  });
  const notServed =
    domain.nameservers !== undefined && !isServiceNameservers(domain.nameservers)
      ? `; ${domain.name} is delegated to other nameservers (${domain.nameservers.join(", ")}): the service does not serve these records\n`
      : "";
  return { filename: `${domain.name}.zone`, text: notServed + body, etag };
}

/**
 * A 32-bit serial from the records' stored fields: the same records give the same serial. It is a
 * fingerprint, not a counter (nothing counts changes); secondaries of an export are not the service's.
 */
function serialOf(rows: readonly DnsRecordRow[]): number {
  let hash = 0x811c9dc5;
  const fields = rows.map((row) => [row.name, row.type, row.content, row.ttl, row.priority].join("\u0000")).join("\u0001");
  for (let index = 0; index < fields.length; index++) {
    hash ^= fields.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // Serial 0 reads as "never loaded" to some tools.
  return hash === 0 ? 1 : hash;
}
