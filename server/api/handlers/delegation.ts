/** A domain's delegation at the registry: custom nameservers, glue and DNSSEC DS records. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { toDsRecord, toGlueRecord } from "../../domain/domains/delegation-views.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { domainDetail } from "../../domain/domains/domain-views.js";
import { addDsRecord, removeDsRecord } from "../../domain/domains/ds-records.js";
import { removeGlueRecord, setGlueRecord } from "../../domain/domains/glue-records.js";
import { readNameservers, requestNameservers } from "../../domain/domains/nameservers.js";
import { DEFAULT_NAMESERVERS } from "../../domain/domains/registration.js";

type Handlers = OperationHandlers<RequestContext>;

type DelegationOperations =
  | "setDomainNameservers"
  | "resetDomainNameservers"
  | "listGlueRecords"
  | "setGlueRecord"
  | "deleteGlueRecord"
  | "listDsRecords"
  | "createDsRecord"
  | "deleteDsRecord";

export const delegationHandlers: Pick<Handlers, DelegationOperations> = {
  setDomainNameservers: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const { domain: after } = await requestNameservers(services, domain, readNameservers(body.nameservers));
    return { status: 200, body: await domainDetail(services, after) };
  },

  resetDomainNameservers: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const { domain: after } = await requestNameservers(services, domain, DEFAULT_NAMESERVERS);
    return { status: 200, body: await domainDetail(services, after) };
  },

  listGlueRecords: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: { glue_records: (await services.store.delegations.glueRecordsOf(domain.id)).map(toGlueRecord) } };
  },

  setGlueRecord: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const glue = await setGlueRecord(services, domain, path.host, { ipv4: body.ipv4, ipv6: body.ipv6 });
    return { status: 200, body: toGlueRecord(glue) };
  },

  deleteGlueRecord: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    await removeGlueRecord(services, domain, path.host);
    return { status: 204 };
  },

  listDsRecords: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: { ds_records: (await services.store.delegations.dsRecordsOf(domain.id)).map(toDsRecord) } };
  },

  createDsRecord: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const ds = await addDsRecord(services, domain, {
      keyTag: body.key_tag,
      algorithm: body.algorithm,
      digestType: body.digest_type,
      digest: body.digest,
    });
    return { status: 201, body: toDsRecord(ds) };
  },

  deleteDsRecord: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    await removeDsRecord(services, domain, path.ds_id);
    return { status: 204 };
  },
};
