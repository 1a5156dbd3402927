/** Applying a template of the catalogue to a domain: the API's template operation and the embedded interface. */
import type { DnsTemplateId } from "../../generated/operations.js";
import type { Services } from "../context.js";
import { apiErrors } from "../errors.js";
import type { DnsRecordRow, DomainRow, Store } from "../store/types.js";
import { recordConflict, recordViolations, type RecordConflict, type RecordDraft, type RuleViolation } from "./record-rules.js";
import { assertRecordValid, createCheckedRecords } from "./record-service.js";
import { expandTemplate } from "./templates.js";

/** A record a template adds, with the rules it breaks and its conflict with the zone or the template's records before it. */
export interface TemplateRecordCheck {
  draft: RecordDraft;
  violations: RuleViolation[];
  conflict: RecordConflict | null;
}

/** Every record the template adds, checked as applying it checks them; refuses (422) only variables it cannot expand. */
export async function checkTemplateRecords(
  store: Store,
  domain: DomainRow,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<TemplateRecordCheck[]> {
  const drafts = expandTemplate(templateId, domain.name, variables);
  return Promise.all(
    drafts.map(async (draft, index) => ({
      draft,
      violations: recordViolations(draft, domain.name),
      conflict: recordConflict(draft, [...(await store.recordsAtName(domain.id, draft.name)), ...drafts.slice(0, index)]),
    })),
  );
}

/** All or nothing: every record is checked, against the zone and each other, before any is written, and all are written together. */
export async function applyTemplate(
  services: Services,
  domain: DomainRow,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<DnsRecordRow[]> {
  const checks = await checkTemplateRecords(services.store, domain, templateId, variables);
  for (const { draft, conflict } of checks) {
    assertRecordValid(draft, domain);
    if (conflict) throw apiErrors.conflict(`Template ${templateId}: ${conflict.message}`, { field: "template_id", code: conflict.code });
  }
  return createCheckedRecords(
    services,
    domain,
    checks.map(({ draft }) => draft),
  );
}
