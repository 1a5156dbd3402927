/**
 * Atomic DNS change sets (POST /api/v1/domains/{domain_id}/dns/changes): deletes, updates and
 * creates of one domain's records, all or none. The whole set is checked first against a copy of
 * the zone that each operation changes in turn, and only a set without a failure is written: no
 * store has to undo a write, so memory, PGlite and PostgreSQL refuse alike. The route runs it
 * domain-locked, so the zone cannot change between the check and the writes.
 */
import { assertRecordsAllowed } from "../access/key-access.js";
import { DEFAULT_TTL } from "./default-ttl.js";
import { dnsLimits } from "../../../generated/operations.js";
import type { components } from "../../../generated/types/full.js";
import { entityTag } from "../../platform/entity-tags.js";
import type { DnsServices } from "./dns-services.js";
import { apiErrors } from "../../platform/errors.js";
import { newId } from "../../platform/ids.js";
import type { DnsRecordRow, RecordZone } from "./record-store.js";
import { parseRecord, storedFields, updatedDraft, zoneConflict, type ParsedRecord, type RecordDraft } from "./record-rules.js";
import { newRecordRow } from "./record-service.js";
import { toRecordD } from "./record-shapes.js";
import { ZoneIndex } from "./zone-index.js";
import { annotationChangeOf, annotationsAfter, commentViolations, type AnnotationChange } from "./record-annotations.js";

type Schemas = components["schemas"];
export type ChangeSet = Schemas["DnsChangeSet"];
type ChangeError = NonNullable<Schemas["DnsChangeSetError"]["details"]["errors"]>[number];
type Operation = ChangeError["operation"];

export interface ChangeSetOutcome {
  id: string | null;
  deleted: DnsRecordRow[];
  updated: Array<{ before: DnsRecordRow; after: DnsRecordRow }>;
  created: DnsRecordRow[];
}

/** Checks a set's operations in order against `zone`, collecting every failure, and returns what it would do. */
function plan(services: DnsServices, domain: RecordZone, zone: ZoneIndex, set: ChangeSet, errors: ChangeError[]): ChangeSetOutcome {
  const fail = (operation: Operation, index: number, code: string, message: string, field?: string) =>
    errors.push({ operation, index, code, message, ...(field === undefined ? {} : { field }) });
  /** The record a draft is, or null with its rule violations or zone conflict, each a failure of the operation. */
  const check = (operation: Operation, index: number, draft: RecordDraft & AnnotationChange, except?: string): ParsedRecord | null => {
    const { record, violations } = parseRecord(draft, domain.name);
    const commentBreaks = commentViolations(draft.comment);
    for (const violation of [...(violations ?? []), ...commentBreaks])
      fail(operation, index, violation.code, violation.message, violation.field);
    if (!record || commentBreaks.length > 0) return null;
    const conflict = zoneConflict(record, record.spelledName, zone.atName(record.name, except));
    if (conflict) fail(operation, index, conflict.code, conflict.message, "name");
    return conflict === null ? record : null;
  };
  const outcome: ChangeSetOutcome = { id: null, deleted: [], updated: [], created: [] };
  const touched = new Set<string>();

  (set.deletes ?? []).forEach((remove, index) => {
    const byId = remove.id !== undefined;
    const bySet = remove.name !== undefined && remove.type !== undefined;
    if (byId === (remove.name !== undefined || remove.type !== undefined) || (!byId && !bySet))
      return fail("deletes", index, "invalid_value", "A delete names a record by id, or a record set by name and type, not both");
    const rows = byId ? [zone.find(remove.id!)].filter((row) => row !== undefined) : zone.set(remove.name!, remove.type!);
    if (byId && rows.length === 0) return fail("deletes", index, "not_found", `DNS record ${remove.id} not found in ${domain.name}`, "id");
    for (const row of rows) {
      zone.remove(row.id);
      touched.add(row.id);
      outcome.deleted.push(row);
    }
  });

  (set.updates ?? []).forEach((update, index) => {
    const before = zone.find(update.id);
    if (!before)
      return fail(
        "updates",
        index,
        touched.has(update.id) ? "duplicate_operation" : "not_found",
        touched.has(update.id)
          ? `DNS record ${update.id} is deleted or updated by an operation before`
          : `DNS record ${update.id} not found in ${domain.name}`,
        "id",
      );
    if (touched.has(update.id))
      return fail("updates", index, "duplicate_operation", `DNS record ${update.id} is updated by an operation before`, "id");
    touched.add(update.id);
    if (update.if_match !== undefined && update.if_match !== entityTag(before))
      return fail(
        "updates",
        index,
        "precondition_failed",
        `DNS record ${update.id} changed since it was read; its ETag is ${entityTag(before)}`,
        "if_match",
      );
    const record = check("updates", index, { ...updatedDraft(before, update), ...annotationChangeOf(update) }, before.id);
    if (!record) return;
    const after: DnsRecordRow = {
      ...before,
      ...storedFields(record),
      ...annotationsAfter(before, update),
      updatedAt: services.clock.now(),
    };
    zone.put(after, record);
    outcome.updated.push({ before, after });
  });

  (set.creates ?? []).forEach((create, index) => {
    const record = check("creates", index, { ...create, ttl: create.ttl ?? DEFAULT_TTL.D, priority: create.priority ?? null });
    if (!record) return;
    const row = newRecordRow(services, domain, record, create);
    if (zone.size >= dnsLimits.records_per_domain)
      return fail("creates", index, "record_limit_exceeded", `A domain holds at most ${dnsLimits.records_per_domain} DNS records`);
    zone.put(row, record);
    outcome.created.push(row);
  });
  return outcome;
}

/**
 * Applies a change set to the domain, or with `dry_run` answers what it would do; refuses the whole
 * set (422 naming every failing operation) when one fails, having changed nothing.
 */
export async function applyChangeSet(services: DnsServices, domain: RecordZone, set: ChangeSet): Promise<ChangeSetOutcome> {
  const errors: ChangeError[] = [];
  const operations = (set.deletes?.length ?? 0) + (set.updates?.length ?? 0) + (set.creates?.length ?? 0);
  if (operations > dnsLimits.changes_per_request)
    errors.push({
      operation: set.creates?.length ? "creates" : set.updates?.length ? "updates" : "deletes",
      index: 0,
      code: "too_many_changes",
      message: `A change set holds at most ${dnsLimits.changes_per_request} operations; this one holds ${operations}`,
    });
  const outcome =
    errors.length > 0 ? null : plan(services, domain, new ZoneIndex(await services.store.recordsOfDomain(domain.id)), set, errors);
  if (outcome === null || errors.length > 0) {
    const count = errors.length === 1 ? "1 operation fails" : `${errors.length} operations fail`;
    throw apiErrors.unprocessable(`The change set was not applied; ${count}`, { code: "change_set_rejected", errors });
  }
  // The one record guard (server/domain/access/key-access.ts), before a dry run answers too: it previews what would be refused.
  assertRecordsAllowed([...outcome.deleted, ...outcome.updated.flatMap(({ before, after }) => [before, after]), ...outcome.created]);
  if (set.dry_run) return outcome;
  for (const row of outcome.deleted) await services.store.deleteRecord(row.id);
  for (const { after } of outcome.updated) await services.store.saveRecord(after);
  if (outcome.created.length > 0 && !(await services.store.addRecords(domain.id, outcome.created, dnsLimits.records_per_domain)))
    throw new Error("a checked change set went past the domain's maximum of records in its own transaction");
  const emit = (type: "dns_record.deleted" | "dns_record.updated" | "dns_record.created", row: DnsRecordRow) =>
    services.outbox.emit(domain.partnerId, type, { domain_id: domain.id, data: toRecordD(row) });
  outcome.deleted.forEach((row) => emit("dns_record.deleted", row));
  outcome.updated.forEach(({ after }) => emit("dns_record.updated", after));
  outcome.created.forEach((row) => emit("dns_record.created", row));
  return { ...outcome, id: newId("chg") };
}
