/**
 * GET /, GET /health and GET /api/v1/health. GET / names where to go from the base address. GET /health asks the store first: while the database is out of
 * reach `ping` throws StoreUnavailableError, which answers 503 with Retry-After
 * (server/api/http/error-handler.ts), so a load balancer drains the instance until the database answers
 * again. GET /api/v1/health needs no ping: its rate limits are counted in the store before it runs.
 */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { timestamp } from "../../platform/clock.js";
import type { RequestContext } from "../../application/context.js";

type Handlers = OperationHandlers<RequestContext>;

export const healthHandlers: Pick<Handlers, "getServiceIndex" | "getHealth" | "getApiHealth"> = {
  getServiceIndex: (_input, { services }) => {
    const { environment, dashboardUrl, referenceUrl } = services.deployment;
    return {
      status: 200,
      body: {
        service: "Partner Domain and DNS Service API",
        environment,
        reference: referenceUrl,
        dashboard: dashboardUrl && `${dashboardUrl}/`,
        health: "/health",
        api_health: "/api/v1/health",
      },
    };
  },

  getHealth: async (_input, { services }) => {
    await services.persistence.ping();
    return { status: 200, body: { status: "ok", time: timestamp(services.clock.now()) } };
  },

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
