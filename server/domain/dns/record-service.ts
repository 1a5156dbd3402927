/** Writing DNS records: rules, zone conflicts, the domain's maximum, storage and events, shared by both variants. */
import { assertRecordsAllowed } from "../access/key-access.js";
import { dnsLimits } from "../../../generated/operations.js";
import type { DnsServices } from "./dns-services.js";
import { ApiError, apiErrors } from "../../platform/errors.js";
import type { OutboxEvent } from "../../platform/events.js";
import { newId } from "../../platform/ids.js";
import type { DnsRecordRow, RecordZone } from "./record-store.js";
import {
  keyOf,
  parseRecord,
  storedFields,
  zoneConflict,
  type ParsedRecord,
  type RecordDraft,
  type RecordKey,
  type RuleViolation,
} from "./record-rules.js";
import { toRecordD } from "./record-shapes.js";
import { annotationsAfter, commentViolations, NO_ANNOTATIONS, type AnnotationChange } from "./record-annotations.js";
import { ZoneIndex } from "./zone-index.js";

/**
 * The record a draft of `domain` is, parsed once; else 422 naming every violated rule (the list
 * shape shows all, the coded shape the first).
 */
export function parseRecordOrRefuse(
  draft: RecordDraft & AnnotationChange,
  domain: RecordZone,
  fieldNames: Partial<Record<string, string>> = {},
): ParsedRecord {
  const { record, violations } = parseRecord(draft, domain.name);
  const all = [...(violations ?? []), ...commentViolations(draft.comment)];
  if (record && all.length === 0) return record;
  throw violationsRefusal(all, fieldNames);
}

/** The 422 of a record's rule violations; `fieldNames` renames fields a variant calls otherwise. */
export function violationsRefusal(violations: readonly RuleViolation[], fieldNames: Partial<Record<string, string>> = {}): ApiError {
  // Messages start with the field they name; a variant that calls the field otherwise (R's value) sees its own name.
  const named = (word: string) => (Object.hasOwn(fieldNames, word) ? fieldNames[word]! : word);
  return apiErrors.invalidValues(
    violations.map((v) => ({ field: named(v.field), code: v.code, message: v.message.replace(/^[a-z_]+(?= )/, named) })),
  );
}

function assertNoConflict(record: ParsedRecord, others: readonly RecordKey[]): void {
  const conflict = zoneConflict(record, record.spelledName, others);
  if (conflict) throw apiErrors.conflict(conflict.message, { field: "name", code: conflict.code });
}

/** The row a checked record becomes, with the comment and lock asked for (checked too); not stored yet. */
export function newRecordRow(
  services: DnsServices,
  domain: RecordZone,
  record: ParsedRecord,
  annotations: AnnotationChange = NO_ANNOTATIONS,
): DnsRecordRow {
  const now = services.clock.now();
  return {
    id: newId("rec"),
    domainId: domain.id,
    ...storedFields(record),
    ...annotationsAfter(NO_ANNOTATIONS, annotations),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Stores new records of one domain, all or none, within the most it may hold (x-dns-limits), then
 * announces each. The store counts and writes in one step, so concurrent requests cannot
 * together pass the maximum.
 */
async function addNewRecords(services: DnsServices, domain: RecordZone, records: DnsRecordRow[]): Promise<void> {
  assertRecordsAllowed(records);
  const max = dnsLimits.records_per_domain;
  if (!(await services.store.addRecords(domain.id, records, max))) {
    const holds = await services.store.countRecords(domain.id);
    throw apiErrors.unprocessable(
      `A domain holds at most ${max} DNS records; ${domain.name} holds ${holds} and this request would add ${records.length}`,
      {
        code: "record_limit_exceeded",
        limit: max,
      },
    );
  }
  for (const record of records)
    services.outbox.emit(domain.partnerId, "dns_record.created", { domain_id: domain.id, data: toRecordD(record) });
}

export async function createRecord(
  services: DnsServices,
  domain: RecordZone,
  draft: RecordDraft & AnnotationChange,
  fieldNames?: Partial<Record<string, string>>,
): Promise<DnsRecordRow> {
  const parsed = parseRecordOrRefuse(draft, domain, fieldNames);
  assertNoConflict(parsed, (await services.store.recordsAtName(domain.id, parsed.name)).map(keyOf));
  const record = newRecordRow(services, domain, parsed, draft);
  await addNewRecords(services, domain, [record]);
  return record;
}

/** Creates records already checked against the rules, the zone and each other (a template's): all or none. */
export async function createCheckedRecords(
  services: DnsServices,
  domain: RecordZone,
  records: readonly ParsedRecord[],
): Promise<DnsRecordRow[]> {
  const rows = records.map((record) => newRecordRow(services, domain, record));
  await addNewRecords(services, domain, rows);
  return rows;
}

export interface BulkOutcome {
  created: DnsRecordRow[];
  /** Position in the request and why, for each draft that broke a rule. */
  refused: Array<{ index: number; error: ApiError }>;
}

/**
 * Bulk creation is partial: each draft is checked against the rules, the zone and the drafts
 * accepted before it, and the accepted ones are stored together. Only when they would take the
 * domain past its maximum is the whole request refused (422), with nothing created.
 */
export async function createRecordsInBulk(
  services: DnsServices,
  domain: RecordZone,
  drafts: Array<RecordDraft & AnnotationChange>,
): Promise<BulkOutcome> {
  const created: DnsRecordRow[] = [];
  const refused: BulkOutcome["refused"] = [];
  const parses = drafts.map((draft) => parseRecord(draft, domain.name));
  const zone = await zoneAtNames(services, domain, parses);
  for (const [index, { record, violations }] of parses.entries()) {
    try {
      const commentBreaks = commentViolations(drafts[index]!.comment);
      if (!record || commentBreaks.length > 0) throw violationsRefusal([...(violations ?? []), ...commentBreaks]);
      assertNoConflict(record, zone.atName(record.name));
      const row = newRecordRow(services, domain, record, drafts[index]);
      zone.put(row, record);
      created.push(row);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      refused.push({ index, error });
    }
  }
  if (created.length > 0) await addNewRecords(services, domain, created);
  return { created, refused };
}

/** The stored records at the names of the parsed drafts, each name read once. */
async function zoneAtNames(
  services: DnsServices,
  domain: RecordZone,
  parses: ReadonlyArray<{ record?: ParsedRecord }>,
): Promise<ZoneIndex> {
  const names = new Set(parses.flatMap(({ record }) => (record ? [record.name] : [])));
  const rows: DnsRecordRow[] = [];
  for (const name of names) rows.push(...(await services.store.recordsAtName(domain.id, name)));
  return new ZoneIndex(rows);
}

export async function updateRecord(
  services: DnsServices,
  domain: RecordZone,
  existing: DnsRecordRow,
  draft: RecordDraft & AnnotationChange,
  fieldNames?: Partial<Record<string, string>>,
): Promise<DnsRecordRow> {
  const parsed = parseRecordOrRefuse(draft, domain, fieldNames);
  // As it was and as it becomes: a restricted key can neither take a record out of its reach nor bring one in.
  assertRecordsAllowed([existing, parsed]);
  assertNoConflict(
    parsed,
    (await services.store.recordsAtName(domain.id, parsed.name)).filter((other) => other.id !== existing.id).map(keyOf),
  );
  const record: DnsRecordRow = {
    ...existing,
    ...storedFields(parsed),
    ...annotationsAfter(existing, draft),
    updatedAt: services.clock.now(),
  };
  await services.store.saveRecord(record);
  services.outbox.emit(domain.partnerId, "dns_record.updated", { domain_id: domain.id, data: toRecordD(record) });
  return record;
}

/** Deletes the record and announces it; the event, kept in the event history, is what the embedded interface restores a record from. */
export async function deleteRecord(services: DnsServices, domain: RecordZone, record: DnsRecordRow): Promise<OutboxEvent> {
  assertRecordsAllowed([record]);
  await services.store.deleteRecord(record.id);
  return services.outbox.emit(domain.partnerId, "dns_record.deleted", { domain_id: domain.id, data: toRecordD(record) });
}
