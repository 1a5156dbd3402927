/** Applying a template of the catalogue to a domain: the API's template operation and the embedded interface. */
import type { DnsTemplateId } from "../../generated/operations.js";
import type { Services } from "../context.js";
import { apiErrors } from "../errors.js";
import type { DnsRecordRow, DomainRow } from "../store/types.js";
import { recordConflict } from "./record-rules.js";
import { assertRecordValid, createCheckedRecords } from "./record-service.js";
import { expandTemplate } from "./templates.js";

/** All or nothing: every record is checked, against the zone and each other, before any is written, and all are written together. */
export async function applyTemplate(
  services: Services,
  domain: DomainRow,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<DnsRecordRow[]> {
  const drafts = expandTemplate(templateId, domain.name, variables);
  for (const [index, draft] of drafts.entries()) {
    assertRecordValid(draft, domain);
    const conflict = recordConflict(draft, [...(await services.store.recordsAtName(domain.id, draft.name)), ...drafts.slice(0, index)]);
    if (conflict) throw apiErrors.conflict(`Template ${templateId}: ${conflict.message}`, { field: "template_id", code: conflict.code });
  }
  return createCheckedRecords(services, domain, drafts);
}
