/** The request log, filtered by status class, route and request id, in pages of PAGE_SIZE. */
import type { Request, Response } from "express";
import type { RequestFilter, StatusClass } from "../../partners/request-history/request-history-store.js";
import { readRequestLogCursor, writeRequestLogCursor } from "../../partners/request-history/request-log-cursor.js";
import { memberOf } from "./dashboard-context.js";
import { masked } from "../views/keys-view.js";
import { newestQuery, requestLogPage } from "../views/request-log-view.js";
import { keysOfPartner } from "../../partners/keys/key-management.js";
import type { RouteTable } from "../../web/route-table.js";

const PAGE_SIZE = 50;

const queryText = (req: Request, name: string) => {
  const value = req.query[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/** The filter of the query; what no form offers (an unknown route, a malformed id) matches nothing rather than everything. */
function filterOf(req: Request, routes: readonly string[]): RequestFilter | null {
  const filter: RequestFilter = {};
  const status = queryText(req, "status");
  if (status !== undefined) {
    if (!/^[2-5]$/.test(status)) return null;
    filter.statusClass = Number(status) as StatusClass;
  }
  const route = queryText(req, "route");
  if (route !== undefined) {
    if (!routes.includes(route)) return null;
    filter.route = route;
  }
  const requestId = queryText(req, "request_id")?.trim();
  if (requestId !== undefined && requestId !== "") {
    if (!/^[\x21-\x7e]{1,200}$/.test(requestId)) return null;
    filter.requestId = requestId;
  }
  return filter;
}

export async function showRequestLog(req: Request, res: Response) {
  const request = memberOf(res);
  const { dashboard } = request;
  const beforeText = queryText(req, "before");
  const before = beforeText === undefined ? null : readRequestLogCursor(beforeText);
  // A link this log did not give out answers nothing, like a filter no form offers.
  const filter = beforeText !== undefined && before === null ? null : filterOf(req, dashboard.routes);
  // What this process's API answered a moment ago is written first, so it shows.
  await dashboard.flushRequestLog();
  const requests =
    filter === null
      ? []
      : await dashboard.services.persistence.requestHistory.page({
          partnerId: request.partner.id,
          environment: dashboard.services.deployment.environment,
          filter,
          before,
          limit: PAGE_SIZE + 1,
        });
  const shown = requests.slice(0, PAGE_SIZE);
  const keys = shown.some((entry) => entry.keyId)
    ? await keysOfPartner(
        dashboard.services.persistence.apiKeys,
        request.partner.id,
        dashboard.services.deployment.environment,
        dashboard.services.clock.now(),
      )
    : [];
  const olderQuery = requests.length > PAGE_SIZE && filter ? newestQuery(filter, writeRequestLogCursor(shown.at(-1)!)) : null;
  res
    .status(filter === null ? 400 : 200)
    .type("html")
    .send(
      requestLogPage({
        chrome: request.chrome("logs"),
        requests: shown,
        filter: filter ?? {},
        routes: dashboard.routes,
        maskedKeys: new Map(keys.map((key) => [key.id, masked(key)])),
        olderQuery,
        paged: beforeText !== undefined,
      }),
    );
}

export const REQUEST_LOG_ROUTES: RouteTable = {
  "/logs": { get: showRequestLog },
};
