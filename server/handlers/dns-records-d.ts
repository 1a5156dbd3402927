/** Variant D: records scoped to their domain, with `content`; bulk creation and templates. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { partnerOf, type RequestContext, type Services } from "../context.js";
import { recordConflict, type RecordDraft } from "../dns/record-rules.js";
import { assertRecordValid, createRecord, deleteRecord, updateRecord } from "../dns/record-service.js";
import { toRecordD } from "../dns/record-shapes.js";
import { expandTemplate } from "../dns/templates.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { ApiError, apiErrors } from "../errors.js";
import type { DnsRecordRow } from "../store/types.js";

type Handlers = OperationHandlers<RequestContext>;

/** Variant D's default TTL (Variant R's is 3600). */
const DEFAULT_TTL_D = 300;

function domainAndRecord(services: Services, partnerId: string, domainId: string, recordId: string) {
  const domain = domainOfPartner(services.store, partnerId, domainId);
  const record = services.store.findRecord(recordId);
  if (!record || record.domainId !== domain.id) throw apiErrors.notFound("DNS record", recordId);
  return { domain, record };
}

const byNameTypeCreation = (a: DnsRecordRow, b: DnsRecordRow) =>
  a.name.localeCompare(b.name) || a.type.localeCompare(b.type) || a.createdAt.getTime() - b.createdAt.getTime();

export const dnsRecordDHandlers: Pick<
  Handlers,
  "listDomainDnsRecords" | "createDomainDnsRecord" | "updateDomainDnsRecord" | "deleteDomainDnsRecord" | "bulkCreateDomainDnsRecords" | "applyDnsTemplate"
> = {
  listDomainDnsRecords: ({ path }, context) => {
    const domain = domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const records = context.services.store.recordsOfDomain(domain.id).sort(byNameTypeCreation).map(toRecordD);
    return { status: 200, body: { records, total: records.length } };
  },

  createDomainDnsRecord: ({ path, body }, context) => {
    const domain = domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const record = createRecord(context.services, domain, { ...body, ttl: body.ttl ?? DEFAULT_TTL_D, priority: body.priority ?? null });
    return { status: 201, body: toRecordD(record) };
  },

  updateDomainDnsRecord: ({ path, body }, context) => {
    const { domain, record } = domainAndRecord(context.services, partnerOf(context).id, path.domain_id, path.record_id);
    const draft: RecordDraft = {
      type: record.type,
      name: body.name ?? record.name,
      content: body.content ?? record.content,
      ttl: body.ttl ?? record.ttl,
      // SRV keeps its priority in content: a new content brings a new priority.
      priority: body.priority ?? (record.type === "SRV" && body.content !== undefined ? null : record.priority),
    };
    return { status: 200, body: toRecordD(updateRecord(context.services, domain, record, draft)) };
  },

  deleteDomainDnsRecord: ({ path }, context) => {
    const { domain, record } = domainAndRecord(context.services, partnerOf(context).id, path.domain_id, path.record_id);
    deleteRecord(context.services, domain, record);
    return { status: 204 };
  },

  bulkCreateDomainDnsRecords: ({ path, body }, context) => {
    const domain = domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const created: DnsRecordRow[] = [];
    const errors: Array<{ index: number; record: Record<string, unknown>; error: string }> = [];
    body.records.forEach((input, index) => {
      const draft: RecordDraft = { ...input, ttl: input.ttl ?? DEFAULT_TTL_D, priority: input.priority ?? null };
      // createRecord checks the rules and the zone as it is now, including the records this request already created.
      try {
        created.push(createRecord(context.services, domain, draft));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        errors.push({ index, record: { ...input }, error: error.message });
      }
    });
    return { status: 200, body: { created: created.map(toRecordD), errors } };
  },

  applyDnsTemplate: ({ path, body }, context) => {
    const { services } = context;
    const domain = domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const drafts = expandTemplate(body.template_id, domain.name, body.variables ?? {});
    // All or nothing: every record is checked, against the zone and each other, before any is written.
    const existing = services.store.recordsOfDomain(domain.id);
    drafts.forEach((draft, index) => {
      assertRecordValid(draft);
      const conflict = recordConflict(draft, [...existing, ...drafts.slice(0, index)]);
      if (conflict) throw apiErrors.conflict(`Template ${body.template_id}: ${conflict.message}`, { field: "template_id", code: conflict.code });
    });
    const created = drafts.map((draft) => createRecord(services, domain, draft));
    return { status: 201, body: { template_id: body.template_id, records_created: created.map(toRecordD) } };
  },
};
