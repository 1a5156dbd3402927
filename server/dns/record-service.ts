/** Writing DNS records: rules, zone conflicts, storage and events, shared by both variants. */
import type { Services } from "../context.js";
import { ApiError, apiErrors } from "../errors.js";
import { newId } from "../ids.js";
import type { DnsRecordRow, DomainRow } from "../store/types.js";
import { canonicalRecord, recordConflict, recordViolations, type RecordDraft } from "./record-rules.js";
import { toRecordD } from "./record-shapes.js";

/** The order records are listed in: by name, then type, then creation. */
export const byNameTypeCreation = (a: DnsRecordRow, b: DnsRecordRow) =>
  a.name.localeCompare(b.name) || a.type.localeCompare(b.type) || a.createdAt.getTime() - b.createdAt.getTime();

/** 422 naming every violated rule of a record of `domain` (the list shape shows all, the coded shape the first). */
export function assertRecordValid(draft: RecordDraft, domain: DomainRow, fieldNames: Partial<Record<string, string>> = {}): void {
  const violations = recordViolations(draft, domain.name);
  if (violations.length === 0) return;
  // Messages start with the field they name; a variant that calls the field otherwise (R's value) sees its own name.
  const messages = violations.map((v) => v.message.replace(/^[a-z_]+(?= )/, (word) => (Object.hasOwn(fieldNames, word) ? fieldNames[word]! : word)));
  const first = violations[0]!;
  throw new ApiError("validation_error", messages[0]!, { field: fieldNames[first.field] ?? first.field, code: first.code }, 422, messages);
}

function assertNoConflict(draft: RecordDraft, others: DnsRecordRow[]): void {
  const conflict = recordConflict(draft, others);
  if (conflict) throw apiErrors.conflict(conflict.message, { field: "name", code: conflict.code });
}

export function createRecord(services: Services, domain: DomainRow, draft: RecordDraft, fieldNames?: Partial<Record<string, string>>): DnsRecordRow {
  assertRecordValid(draft, domain, fieldNames);
  assertNoConflict(draft, services.store.recordsAtName(domain.id, draft.name));
  const now = services.clock.now();
  const record: DnsRecordRow = { id: newId("rec"), domainId: domain.id, ...canonicalRecord(draft), createdAt: now, updatedAt: now };
  services.store.saveRecord(record);
  services.outbox.emit(domain.partnerId, "dns_record.created", { domain_id: domain.id, data: toRecordD(record) });
  return record;
}

export function updateRecord(services: Services, domain: DomainRow, existing: DnsRecordRow, draft: RecordDraft, fieldNames?: Partial<Record<string, string>>): DnsRecordRow {
  assertRecordValid(draft, domain, fieldNames);
  assertNoConflict(draft, services.store.recordsAtName(domain.id, draft.name).filter((other) => other.id !== existing.id));
  const record: DnsRecordRow = { ...existing, ...canonicalRecord(draft), updatedAt: services.clock.now() };
  services.store.saveRecord(record);
  services.outbox.emit(domain.partnerId, "dns_record.updated", { domain_id: domain.id, data: toRecordD(record) });
  return record;
}

export function deleteRecord(services: Services, domain: DomainRow, record: DnsRecordRow): void {
  services.store.deleteRecord(record.id);
  services.outbox.emit(domain.partnerId, "dns_record.deleted", { domain_id: domain.id, data: toRecordD(record) });
}
