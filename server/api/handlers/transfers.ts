/** Domain transfers: start one, read its status. */
import { assertDomainAllowed } from "../../domain/access/key-access.js";
import type { OperationHandlers } from "../../../generated/handlers.js";
import { timestamp } from "../../platform/clock.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { apiErrors } from "../../platform/errors.js";
import { formatCents } from "../../platform/money.js";
import { startTransfer, transferStatusView } from "../../domain/transfers/transfer-service.js";

type Handlers = OperationHandlers<RequestContext>;

export const transferHandlers: Pick<Handlers, "initiateTransfer" | "getTransfer"> = {
  initiateTransfer: async ({ body }, context) => {
    const transfer = await startTransfer(context.services, {
      partnerId: partnerOf(context).id,
      userIdentifier: body.user_identifier,
      domainName: body.domain_name,
      authCode: body.auth_code,
      extendRegistration: body.extend_registration ?? false,
    });
    return {
      status: 201,
      body: {
        transfer_id: transfer.id,
        domain_name: transfer.domainName,
        status: transfer.status,
        estimated_completion: timestamp(transfer.estimatedCompletion),
        cost: formatCents(transfer.cost),
        currency: transfer.currency,
      },
    };
  },

  getTransfer: async ({ path }, context) => {
    const transfer = await context.services.store.findTransfer(path.transfer_id);
    if (!transfer) throw apiErrors.notFound("Transfer", path.transfer_id);
    if (transfer.partnerId !== partnerOf(context).id) throw apiErrors.forbidden("transfer");
    assertDomainAllowed(transfer.domainName);
    return { status: 200, body: transferStatusView(transfer) };
  },
};
