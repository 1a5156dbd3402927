/** Variant R: records addressed by their own id, with `value`. */
import { DEFAULT_TTL } from "../../domain/dns/default-ttl.js";
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext, type Services } from "../../application/context.js";
import { createRecord, deleteRecord, updateRecord } from "../../domain/dns/record-service.js";
import { toRecordR } from "../../domain/dns/record-shapes.js";
import { annotationChangeOf } from "../../domain/dns/record-annotations.js";
import { draftFromR, mergeRPatch } from "../../domain/dns/variant-r-input.js";
import { assertIfMatch, entityTag } from "../../platform/entity-tags.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { apiErrors } from "../../platform/errors.js";

type Handlers = OperationHandlers<RequestContext>;

async function recordOfPartner(services: Services, partnerId: string, recordId: string) {
  const found = await services.store.findRecord(recordId);
  if (!found) throw apiErrors.notFound("DNS record", recordId);
  const domain = await domainOfPartner(services.store, partnerId, found.domainId);
  // Read again once the domain is read (and, in a write, locked): as its zone's writers left it.
  const record = await services.store.findRecord(recordId);
  if (!record) throw apiErrors.notFound("DNS record", recordId);
  return { record, domain };
}

export const dnsRecordRHandlers: Pick<Handlers, "createDnsRecord" | "getDnsRecord" | "updateDnsRecord" | "deleteDnsRecord"> = {
  createDnsRecord: async ({ body }, context) => {
    const { domain_id: domainId, ...fields } = body;
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, domainId);
    const draft = { ...draftFromR({ ...fields, ttl: fields.ttl ?? DEFAULT_TTL.R }), ...annotationChangeOf(fields) };
    const record = await createRecord(context.services, domain, draft, { content: "value" });
    return { status: 201, body: toRecordR(record), etag: entityTag(record) };
  },

  getDnsRecord: async ({ path }, context) => {
    const { record } = await recordOfPartner(context.services, partnerOf(context).id, path.id);
    return { status: 200, body: toRecordR(record), etag: entityTag(record) };
  },

  updateDnsRecord: async ({ path, header, body }, context) => {
    const { record, domain } = await recordOfPartner(context.services, partnerOf(context).id, path.id);
    assertIfMatch(header["If-Match"], record, "DNS record");
    const draft = { ...draftFromR(mergeRPatch(record, body)), ...annotationChangeOf(body) };
    const updated = await updateRecord(context.services, domain, record, draft, { content: "value" });
    return { status: 200, body: toRecordR(updated), etag: entityTag(updated) };
  },

  deleteDnsRecord: async ({ path, header }, context) => {
    const { record, domain } = await recordOfPartner(context.services, partnerOf(context).id, path.id);
    assertIfMatch(header["If-Match"], record, "DNS record");
    await deleteRecord(context.services, domain, record);
    return { status: 204 };
  },
};
