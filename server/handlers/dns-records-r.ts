/** Variant R: records addressed by their own id, with `value`. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { partnerOf, type RequestContext, type Services } from "../context.js";
import { createRecord, deleteRecord, updateRecord } from "../dns/record-service.js";
import { toRecordR } from "../dns/record-shapes.js";
import { draftFromR, mergeRPatch } from "../dns/variant-r-input.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { apiErrors } from "../errors.js";

type Handlers = OperationHandlers<RequestContext>;

/** Variant R's default TTL (Variant D's is 300). */
const DEFAULT_TTL_R = 3600;

function recordOfPartner(services: Services, partnerId: string, recordId: string) {
  const record = services.store.findRecord(recordId);
  if (!record) throw apiErrors.notFound("DNS record", recordId);
  return { record, domain: domainOfPartner(services.store, partnerId, record.domainId) };
}

export const dnsRecordRHandlers: Pick<Handlers, "createDnsRecord" | "getDnsRecord" | "updateDnsRecord" | "deleteDnsRecord"> = {
  createDnsRecord: ({ body }, context) => {
    const { domain_id: domainId, ...fields } = body;
    const domain = domainOfPartner(context.services.store, partnerOf(context).id, domainId);
    const record = createRecord(context.services, domain, draftFromR({ ...fields, ttl: fields.ttl ?? DEFAULT_TTL_R }), {
      content: "value",
    });
    return { status: 201, body: toRecordR(record) };
  },

  getDnsRecord: ({ path }, context) => {
    const { record } = recordOfPartner(context.services, partnerOf(context).id, path.id);
    return { status: 200, body: toRecordR(record) };
  },

  updateDnsRecord: ({ path, body }, context) => {
    const { record, domain } = recordOfPartner(context.services, partnerOf(context).id, path.id);
    const updated = updateRecord(context.services, domain, record, draftFromR(mergeRPatch(record, body)), { content: "value" });
    return { status: 200, body: toRecordR(updated) };
  },

  deleteDnsRecord: ({ path }, context) => {
    const { record, domain } = recordOfPartner(context.services, partnerOf(context).id, path.id);
    deleteRecord(context.services, domain, record);
    return { status: 204 };
  },
};
