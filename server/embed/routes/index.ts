/** The embedded interface's pages of an open session, as route tables (mounted by server/embed/embed-app.ts). */
import type { RouteTable } from "../../web/route-table.js";
import { BRANDING_ROUTES } from "./branding.js";
import { DNS_ROUTES } from "./dns.js";
import { DOMAIN_ROUTES } from "./domains.js";
import { SEARCH_ROUTES } from "./search.js";

export const SESSION_ROUTES: RouteTable[] = [
  { "/": { get: (_req, res) => res.redirect(303, "/domains") } },
  BRANDING_ROUTES,
  DOMAIN_ROUTES,
  SEARCH_ROUTES,
  DNS_ROUTES,
];
