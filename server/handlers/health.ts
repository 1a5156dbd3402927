/** GET /health and GET /api/v1/health. */
import type { OperationHandlers } from "../../generated/handlers.js";
import { timestamp } from "../clock.js";
import type { RequestContext } from "../context.js";

type Handlers = OperationHandlers<RequestContext>;

export const healthHandlers: Pick<Handlers, "getHealth" | "getApiHealth"> = {
  getHealth: (_input, { services }) => ({ status: 200, body: { status: "ok", time: timestamp(services.clock.now()) } }),

  getApiHealth: (_input, { services }) => ({
    status: 200,
    body: {
      status: "ok",
      time: timestamp(services.clock.now()),
      api_version: "v1",
      environment: services.deployment.environment,
      variants: [...services.deployment.variants],
    },
  }),
};
