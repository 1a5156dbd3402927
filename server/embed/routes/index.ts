/** The embedded interface's pages of an open session, as route tables (mounted by server/embed/embed-app.ts). */
import type { RouteTable } from "../../web/route-table.js";
import { BRANDING_ROUTES } from "./branding.js";
import { CONNECTION_ROUTES } from "./connection.js";
import { DELEGATION_ROUTES } from "./delegation.js";
import { DNS_ROUTES } from "./dns.js";
import { DOMAIN_ROUTES } from "./domains.js";
import { SEARCH_ROUTES } from "./search.js";
import { TRANSFER_OUT_ROUTES } from "./transfer-out.js";
import { ZONE_FILE_ROUTES } from "./zone-files.js";

export const SESSION_ROUTES: RouteTable[] = [
  { "/": { get: (_req, res) => res.redirect(303, "/domains") } },
  BRANDING_ROUTES,
  DOMAIN_ROUTES,
  SEARCH_ROUTES,
  DNS_ROUTES,
  DELEGATION_ROUTES,
  CONNECTION_ROUTES,
  TRANSFER_OUT_ROUTES,
  ZONE_FILE_ROUTES,
];
