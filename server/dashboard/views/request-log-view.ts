/** The request log: a partner's last API requests of this environment, newest first, filtered. */
import { REQUEST_LOG_RETENTION, type LoggedRequest, type RequestFilter } from "../../partners/request-history/request-history-store.js";
import { html, type Html } from "../../web/html.js";
import { input, select } from "./controls.js";
import { duration, when } from "./format.js";
import { page, type Chrome } from "./layout.js";

export const STATUS_CLASS_CHOICES = [
  { value: "", label: "Any status" },
  { value: "2", label: "2xx succeeded" },
  { value: "3", label: "3xx redirected" },
  { value: "4", label: "4xx refused" },
  { value: "5", label: "5xx failed" },
] as const;

const KEPT_REQUESTS = REQUEST_LOG_RETENTION.keepLatest.toLocaleString("en");
const KEPT_DAYS = REQUEST_LOG_RETENTION.maxAgeMs / 86_400_000;

const RESTRICTION_LABEL: Record<string, string> = {
  domains: "domains",
  record_names: "record names",
  record_types: "record types",
  client_ips: "client addresses",
};

/**
 * The key by its name and, for a stored key, as the keys list shows it (prefix and last four), since a
 * rolled key shares its name; a key no longer listed (revoked, expired) by its id.
 */
const keyCell = (request: LoggedRequest, maskedKeys: ReadonlyMap<string, string>): Html =>
  html`${request.keyName}${request.keyId && html`<br><code class="key-id">${maskedKeys.get(request.keyId) ?? request.keyId}</code>`}`;

/** Whether the key's scopes and restrictions let the request through, and if not, which scope or restriction. */
export function scopeDecision(request: Pick<LoggedRequest, "scopeDecision" | "scopeDetail">): Html {
  switch (request.scopeDecision) {
    case "insufficient_scope":
      return request.scopeDetail === "unrestricted"
        ? html`<span class="badge badge-status-4">Refused</span> needs a full-access key`
        : html`<span class="badge badge-status-4">Refused</span> missing scope <code>${request.scopeDetail ?? "?"}</code>`;
    case "key_restricted":
      return html`<span class="badge badge-status-4">Refused</span> by restriction: ${RESTRICTION_LABEL[request.scopeDetail ?? ""] ?? request.scopeDetail ?? "?"}`;
    default:
      return html`Allowed`;
  }
}

export function requestLogPage(options: {
  chrome: Chrome;
  requests: readonly LoggedRequest[];
  filter: RequestFilter;
  routes: readonly string[];
  /** The masked form (`sk_sandbox_ab12…wxyz`) of the partner's keys still listed, by id. */
  maskedKeys: ReadonlyMap<string, string>;
  /** The query of the next (older) page, or null at the end. */
  olderQuery: string | null;
  /** Whether this page starts after the newest. */
  paged: boolean;
}): string {
  const { chrome, requests, filter } = options;
  return page(
    "Request log",
    html`<h1>Request log</h1>
<p>Your last API requests of this environment, newest first: the last ${KEPT_REQUESTS}, none older than ${KEPT_DAYS} days. Requests refused for the rate limits (429) are counted rather than listed: one line per key, route and minute, with the time and request id of the first. Only what identifies a request is kept, never bodies, header values, keys or tokens. Each request names the key that made it and whether the key's scopes and restrictions let it through.</p>
<form method="get" action="/logs" class="card filters" role="search" aria-label="Filter requests">
${select({ id: "status", name: "status", label: "Status", choices: STATUS_CLASS_CHOICES, value: filter.statusClass === undefined ? "" : String(filter.statusClass) })}
${select({ id: "route", name: "route", label: "Route", choices: [{ value: "", label: "Any route" }, ...options.routes.map((route) => ({ value: route, label: route }))], value: filter.route ?? "" })}
${input({ id: "request_id", name: "request_id", label: "Request id", value: filter.requestId ?? "", hint: "The X-Request-Id of an answer." })}
<div class="button-row"><button type="submit" class="button button-primary">Filter</button> <a class="button button-secondary" href="/logs">Clear</a></div>
</form>
<section aria-labelledby="requests-heading"><h2 id="requests-heading">Requests</h2>
${
  requests.length === 0
    ? html`<p class="empty">${options.paged ? "No older requests." : "No requests match. Requests appear here a moment after they are made."}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="requests-heading" tabindex="0"><table class="log">
<caption class="visually-hidden">Requests, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Route</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Key</th><th scope="col">Scope decision</th><th scope="col">Request id</th></tr></thead>
<tbody>${requests.map(
        (request) => html`<tr>
<td>${when(request.at)}</td><td>${request.method}</td><td><code>${request.route ?? "(no such operation)"}</code></td>
<td><span class="badge badge-status-${Math.floor(request.status / 100)}">${request.status}</span>${request.count > 1 && html` <span class="request-count">× ${request.count.toLocaleString("en")} in this minute</span>`}</td><td>${duration(request.durationMs)}</td><td>${keyCell(request, options.maskedKeys)}</td><td>${scopeDecision(request)}</td><td><code>${request.requestId}</code></td>
</tr>`,
      )}</tbody></table></div>`
}
${(options.paged || options.olderQuery) && html`<nav aria-label="Request log pages" class="pager">${options.paged && html`<a href="/logs?${newestQuery(filter)}">Newest</a>`} ${options.olderQuery && html`<a href="/logs?${options.olderQuery}">Older</a>`}</nav>`}
</section>`,
    chrome,
  );
}

/** The query of the log's newest page with the filter, or of the page older than `before` (a cursor of request-log-cursor.ts). */
export function newestQuery(filter: RequestFilter, before?: string): string {
  const query = new URLSearchParams();
  if (filter.statusClass !== undefined) query.set("status", String(filter.statusClass));
  if (filter.route !== undefined) query.set("route", filter.route);
  if (filter.requestId !== undefined) query.set("request_id", filter.requestId);
  if (before !== undefined) query.set("before", before);
  return query.toString();
}
