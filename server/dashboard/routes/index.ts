/** The dashboard's pages, as route tables, in the order the request ladder mounts them (server/dashboard/dashboard-app.ts). */
import type { Environment } from "../../../generated/deployment.js";
import type { RouteTable } from "../../web/route-table.js";
import { ACCOUNT_ROUTES, PUBLIC_ACCOUNT_ROUTES } from "./account.js";
import { CONNECTION_ROUTES } from "./connection.js";
import { EMBEDDING_ROUTES } from "./embedding.js";
import { KEY_ROUTES } from "./keys.js";
import { REQUEST_LOG_ROUTES } from "./request-log.js";
import { SANDBOX_ROUTES } from "./sandbox.js";
import { TEAM_ROUTES } from "./team.js";
import { WEBHOOK_ROUTES } from "./webhooks.js";

/** Shown without a session: sign-in, sign-up, invitations. Their forms are checked against the form cookie. */
export const PUBLIC_ROUTES: RouteTable[] = [PUBLIC_ACCOUNT_ROUTES];

/** A signed-in member's pages; the sandbox's only where there is one. */
export const memberRoutes = (environment: Environment): RouteTable[] => [
  { "/": { get: (_req, res) => res.redirect(303, "/keys") } },
  ACCOUNT_ROUTES,
  KEY_ROUTES,
  WEBHOOK_ROUTES,
  REQUEST_LOG_ROUTES,
  ...(environment === "sandbox" ? [SANDBOX_ROUTES] : []),
  EMBEDDING_ROUTES,
  CONNECTION_ROUTES,
  TEAM_ROUTES,
];
