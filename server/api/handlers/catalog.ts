/** TLD prices and availability. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { checkAvailability } from "../../domain/catalog/availability.js";
import { TLD_CATALOGUE } from "../../domain/catalog/tlds.js";
import type { RequestContext } from "../../application/context.js";
import { formatCents } from "../../platform/money.js";

type Handlers = OperationHandlers<RequestContext>;

export const catalogHandlers: Pick<Handlers, "listTlds" | "checkAvailability"> = {
  listTlds: () => ({
    status: 200,
    body: {
      tlds: TLD_CATALOGUE.map((entry) => ({
        tld: entry.tld,
        registration_price: formatCents(entry.registration),
        renewal_price: formatCents(entry.renewal),
        transfer_price: formatCents(entry.transfer),
        currency: "USD",
        available: entry.available,
      })),
    },
  }),

  checkAvailability: async ({ path }, { services }) => ({
    status: 200,
    body: await checkAvailability(services.store, services.deployment.environment, path.domain_name),
  }),
};
