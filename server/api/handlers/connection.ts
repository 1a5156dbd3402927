/** "Is it pointing at us?": the partner's connection requirements and a domain's check against them. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { checkConnection, replaceRequirements } from "../../domain/connection/connection-service.js";
import type { StoredRequirements } from "../../domain/connection/connection-store.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { timestamp } from "../../platform/clock.js";

type Handlers = OperationHandlers<RequestContext>;

const requirementsBody = ({ requirements, updatedAt }: StoredRequirements) => ({
  requirements,
  updated_at: updatedAt && timestamp(updatedAt),
});

export const connectionHandlers: Pick<Handlers, "getConnectionRequirements" | "replaceConnectionRequirements" | "getDomainConnection"> = {
  getConnectionRequirements: async (_input, context) => {
    const { services } = context;
    const stored = await services.store.connections.requirementsOf(partnerOf(context).id, services.deployment.environment);
    return { status: 200, body: requirementsBody(stored) };
  },

  replaceConnectionRequirements: async ({ body }, context) => {
    const stored = await replaceRequirements(context.services, partnerOf(context).id, body.requirements);
    return { status: 200, body: requirementsBody(stored) };
  },

  getDomainConnection: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: (await checkConnection(services, domain)).answer };
  },
};
