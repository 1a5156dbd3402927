/** Variant D: records scoped to their domain, with `content`; bulk creation and templates. */
import { DEFAULT_TTL } from "../../domain/dns/default-ttl.js";
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext, type Services } from "../../application/context.js";
import { applyChangeSet } from "../../domain/dns/change-sets.js";
import { updatedDraft, type RecordDraft } from "../../domain/dns/record-rules.js";
import { recordPage } from "../../domain/dns/record-pages.js";
import { createRecord, createRecordsInBulk, deleteRecord, updateRecord } from "../../domain/dns/record-service.js";
import { toRecordD } from "../../domain/dns/record-shapes.js";
import { annotationChangeOf, type AnnotationChange } from "../../domain/dns/record-annotations.js";
import { applyTemplate } from "../../domain/dns/template-service.js";
import { assertIfMatch, entityTag } from "../../platform/entity-tags.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { apiErrors } from "../../platform/errors.js";

type Handlers = OperationHandlers<RequestContext>;

async function domainAndRecord(services: Services, partnerId: string, domainId: string, recordId: string) {
  const domain = await domainOfPartner(services.store, partnerId, domainId);
  const record = await services.store.findRecord(recordId);
  if (!record || record.domainId !== domain.id) throw apiErrors.notFound("DNS record", recordId);
  return { domain, record };
}

export const dnsRecordDHandlers: Pick<
  Handlers,
  | "listDomainDnsRecords"
  | "createDomainDnsRecord"
  | "updateDomainDnsRecord"
  | "deleteDomainDnsRecord"
  | "bulkCreateDomainDnsRecords"
  | "applyDnsTemplate"
  | "applyDnsChangeSet"
> = {
  applyDnsChangeSet: async ({ path, body }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const outcome = await applyChangeSet(context.services, domain, body);
    return {
      status: 200,
      body: {
        id: outcome.id,
        dry_run: body.dry_run ?? false,
        deleted: outcome.deleted.map(toRecordD),
        updated: outcome.updated.map(({ before, after }) => ({ before: toRecordD(before), after: toRecordD(after) })),
        created: outcome.created.map(toRecordD),
      },
    };
  },

  listDomainDnsRecords: async ({ path, query }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const filter = { ...(query.type ? { type: query.type } : {}), ...(query.name !== undefined ? { name: query.name } : {}) };
    const page = await recordPage(context.services.store, domain, query.limit, query.cursor, filter);
    return { status: 200, body: { records: page.records.map(toRecordD), total: page.total, next_cursor: page.nextCursor } };
  },

  createDomainDnsRecord: async ({ path, body }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const record = await createRecord(context.services, domain, {
      ...body,
      ttl: body.ttl ?? DEFAULT_TTL.D,
      priority: body.priority ?? null,
    });
    return { status: 201, body: toRecordD(record), etag: entityTag(record) };
  },

  updateDomainDnsRecord: async ({ path, header, body }, context) => {
    const { domain, record } = await domainAndRecord(context.services, partnerOf(context).id, path.domain_id, path.record_id);
    assertIfMatch(header["If-Match"], record, "DNS record");
    const updated = await updateRecord(context.services, domain, record, { ...updatedDraft(record, body), ...annotationChangeOf(body) });
    return { status: 200, body: toRecordD(updated), etag: entityTag(updated) };
  },

  deleteDomainDnsRecord: async ({ path, header }, context) => {
    const { domain, record } = await domainAndRecord(context.services, partnerOf(context).id, path.domain_id, path.record_id);
    assertIfMatch(header["If-Match"], record, "DNS record");
    await deleteRecord(context.services, domain, record);
    return { status: 204 };
  },

  bulkCreateDomainDnsRecords: async ({ path, body }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const drafts = body.records.map((input): RecordDraft & AnnotationChange => ({
      ...input,
      ttl: input.ttl ?? DEFAULT_TTL.D,
      priority: input.priority ?? null,
    }));
    const { created, refused } = await createRecordsInBulk(context.services, domain, drafts);
    const errors = refused.map(({ index, error }) => ({ index, record: { ...body.records[index]! }, error: error.message }));
    return { status: 200, body: { created: created.map(toRecordD), errors } };
  },

  applyDnsTemplate: async ({ path, body }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const created = await applyTemplate(context.services, domain, body.template_id, body.variables ?? {});
    return { status: 201, body: { template_id: body.template_id, records_created: created.map(toRecordD) } };
  },
};
