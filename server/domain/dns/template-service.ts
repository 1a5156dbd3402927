/** Applying a template of the catalogue to a domain: the API's template operation and the embedded interface. */
import type { DnsTemplateId } from "../../../generated/operations.js";
import type { DnsServices } from "./dns-services.js";
import { apiErrors } from "../../platform/errors.js";
import type { DnsRecordRow, RecordStore, RecordZone } from "./record-store.js";
import {
  keyOf,
  parseRecord,
  zoneConflict,
  type ParsedRecord,
  type RecordConflict,
  type RecordDraft,
  type RuleViolation,
} from "./record-rules.js";
import { createCheckedRecords, violationsRefusal } from "./record-service.js";
import { expandTemplate } from "./templates.js";

/** A record a template adds, with the rules it breaks and its conflict with the zone or the template's records before it. */
export interface TemplateRecordCheck {
  draft: RecordDraft;
  /** The draft parsed, when it meets the rules. */
  record: ParsedRecord | null;
  violations: RuleViolation[];
  conflict: RecordConflict | null;
}

/** Every record the template adds, checked as applying it checks them; refuses (422) only variables it cannot expand. */
export async function checkTemplateRecords(
  store: RecordStore,
  domain: RecordZone,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<TemplateRecordCheck[]> {
  const drafts = expandTemplate(templateId, domain.name, variables);
  // A draft that breaks a rule is still checked against the zone, keyed as written, so every problem is shown at once.
  const parses = drafts.map((draft) => parseRecord(draft, domain.name));
  const keys = parses.map(({ record }, index) => record ?? keyOf(drafts[index]!));
  return Promise.all(
    drafts.map(async (draft, index) => ({
      draft,
      record: parses[index]!.record ?? null,
      violations: parses[index]!.violations ?? [],
      conflict: zoneConflict(keys[index]!, draft.name, [
        ...(await store.recordsAtName(domain.id, draft.name)).map(keyOf),
        ...keys.slice(0, index),
      ]),
    })),
  );
}

/** All or nothing: every record is checked, against the zone and each other, before any is written, and all are written together. */
export async function applyTemplate(
  services: DnsServices,
  domain: RecordZone,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<DnsRecordRow[]> {
  const checks = await checkTemplateRecords(services.store, domain, templateId, variables);
  const records: ParsedRecord[] = [];
  for (const { record, violations, conflict } of checks) {
    if (!record) throw violationsRefusal(violations);
    if (conflict) throw apiErrors.conflict(`Template ${templateId}: ${conflict.message}`, { field: "template_id", code: conflict.code });
    records.push(record);
  }
  return createCheckedRecords(services, domain, records);
}
