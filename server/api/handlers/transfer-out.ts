/** Registrar controls: a domain's transfer-out code, its outbound transfer and the owner's answer, and the sandbox's gaining registrar. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { timestamp } from "../../platform/clock.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { readAuthCode } from "../../domain/domains/transfer-controls.js";
import { answerOutboundTransfer, outboundTransferView, requestOutboundTransfer } from "../../domain/transfers/outbound-transfers.js";
import { apiErrors } from "../../platform/errors.js";

type Handlers = OperationHandlers<RequestContext>;

export const transferOutHandlers: Pick<
  Handlers,
  "getTransferAuthCode" | "getOutboundTransfer" | "answerOutboundTransfer" | "requestSandboxOutboundTransfer"
> = {
  getTransferAuthCode: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const controls = await readAuthCode(services.store, domain, services.clock.now());
    return {
      status: 200,
      body: {
        domain_id: domain.id,
        domain_name: domain.name,
        auth_code: controls.authCode,
        transfer_lock: controls.transferLock,
        created_at: timestamp(controls.authCodeCreatedAt),
      },
    };
  },

  getOutboundTransfer: async ({ path }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const transfer = await services.store.transferOut.latestOutboundTransfer(domain.id);
    if (!transfer) throw apiErrors.notFound("Outbound transfer of domain", domain.id);
    return { status: 200, body: outboundTransferView(transfer) };
  },

  answerOutboundTransfer: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    return { status: 200, body: outboundTransferView(await answerOutboundTransfer(services, domain, body.decision)) };
  },

  requestSandboxOutboundTransfer: async ({ path, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    const transfer = await requestOutboundTransfer(services, domain, {
      authCode: body.auth_code,
      gainingRegistrar: body.gaining_registrar,
    });
    return { status: 201, body: outboundTransferView(transfer) };
  },
};
