/** The Webhooks section: endpoints, their secret shown once, events chosen, and each endpoint's delivery log. */
import { defaultWebhookEvents, subscribableWebhookEvents } from "../../../generated/operations.js";
import type { components } from "../../../generated/types/full.js";
import { html, type Html } from "../../web/html.js";
import { actionButton, checkboxes, csrfInput, errorSummary, input, NO_ERRORS, secretOnce, select, type FormErrors } from "./controls.js";
import { duration, whenText } from "./format.js";
import { notice, page, type Chrome } from "./layout.js";

type Endpoint = components["schemas"]["WebhookEndpoint"];
type Delivery = components["schemas"]["WebhookDelivery"];

export const DELIVERIES_PER_PAGE = 20;

export const PREVIOUS_SECRET_CHOICES = [
  { value: "0", label: "Stop signing with it now" },
  { value: "3600", label: "1 hour" },
  { value: "86400", label: "24 hours" },
] as const;

const STATUS_LABEL: Record<Endpoint["status"], string> = { enabled: "Enabled", disabled: "Disabled", failing: "Failing" };

const statusBadge = (status: Endpoint["status"]) => html`<span class="badge badge-${status}">${STATUS_LABEL[status]}</span>`;

const eventsText = (endpoint: Endpoint) =>
  takesDefaultEvents(endpoint.events)
    ? "Default: every event but the opt-in ones"
    : endpoint.events.length === subscribableWebhookEvents.length
      ? "All events"
      : endpoint.events.join(", ");

/** Whether the endpoint receives what one that names no event types does (the opt-in types left out). */
export const takesDefaultEvents = (events: readonly string[]) =>
  events.length === defaultWebhookEvents.length && defaultWebhookEvents.every((type) => events.includes(type));

export function endpointsPage(chrome: Chrome, endpoints: readonly Endpoint[], message: string | null): string {
  return page(
    "Webhooks",
    html`<h1>Webhooks</h1>
<p>Endpoints receive signed events of this environment as they happen (<a href="/docs/">how to verify signatures</a>).</p>
${notice(message)}
<p><a class="button button-primary" href="/webhooks/new">Add an endpoint</a></p>
<section aria-labelledby="endpoints-heading"><h2 id="endpoints-heading">Endpoints</h2>
${
  endpoints.length === 0
    ? html`<p class="empty">No endpoints yet.</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="endpoints-heading" tabindex="0"><table>
<caption class="visually-hidden">Webhook endpoints</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Description</th><th scope="col">Events</th><th scope="col">Status</th></tr></thead>
<tbody>${endpoints.map(
        (endpoint) =>
          html`<tr><th scope="row"><a href="/webhooks/${endpoint.id}">${endpoint.url}</a></th><td>${endpoint.description ?? ""}</td><td>${eventsText(endpoint)}</td><td>${statusBadge(endpoint.status)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>`,
    chrome,
  );
}

export interface EndpointFormValues {
  url: string;
  description: string;
  events: ReadonlySet<string>;
}

const EVENT_CHOICES = subscribableWebhookEvents.map((type) => ({ value: type, label: type }));

function endpointFields(values: EndpointFormValues, errors: FormErrors): Html {
  return html`${input({ id: "url", name: "url", label: "Endpoint URL", type: "url", value: values.url, hint: "Where events are sent with a POST, such as https://example.com/webhooks. The sandbox also sends to http://127.0.0.1.", error: errors.fields.url, required: true })}
${input({ id: "description", name: "description", label: "Description (optional)", value: values.description, error: errors.fields.description })}
${checkboxes({ id: "events", name: "events", legend: "Events to send", hint: "Choose none to receive every event but the opt-in ones (types added since 1.0.0: name them to receive them).", error: errors.fields.events, choices: EVENT_CHOICES, checked: values.events })}`;
}

export function newEndpointPage(chrome: Chrome, values: EndpointFormValues, errors: FormErrors = NO_ERRORS): string {
  return page(
    "Add an endpoint",
    html`<h1>Add an endpoint</h1>
${errorSummary(errors)}
<form method="post" action="/webhooks" class="card" novalidate>
${csrfInput(chrome.csrfToken)}
${endpointFields(values, errors)}
<div class="button-row"><button type="submit" class="button button-primary">Add endpoint</button> <a href="/webhooks" class="button button-secondary">Cancel</a></div>
</form>`,
    chrome,
  );
}

export function editEndpointPage(chrome: Chrome, endpoint: Endpoint, values: EndpointFormValues, errors: FormErrors = NO_ERRORS): string {
  return page(
    "Edit endpoint",
    html`<h1>Edit endpoint</h1>
${errorSummary(errors)}
<form method="post" action="/webhooks/${endpoint.id}/edit" class="card" novalidate>
${csrfInput(chrome.csrfToken)}
${endpointFields(values, errors)}
<div class="button-row"><button type="submit" class="button button-primary">Save</button> <a href="/webhooks/${endpoint.id}" class="button button-secondary">Cancel</a></div>
</form>`,
    chrome,
  );
}

function attemptsList(delivery: Delivery): Html {
  if (delivery.attempts.length === 0)
    return html`<p>Not attempted yet${delivery.next_attempt_at && html`; due ${whenText(delivery.next_attempt_at)}`}.</p>`;
  return html`<ol class="attempts">${delivery.attempts.map(
    (attempt) =>
      html`<li>${whenText(attempt.attempted_at)}: ${attempt.status_code === null ? html`no answer (${attempt.error ?? "unknown error"})` : html`HTTP ${attempt.status_code}${attempt.error && html` (${attempt.error})`}`}, ${duration(attempt.duration_ms)}</li>`,
  )}</ol>${delivery.next_attempt_at && html`<p>Next attempt ${whenText(delivery.next_attempt_at)}.</p>`}`;
}

function deliveryRows(chrome: Chrome, endpoint: Endpoint, deliveries: readonly Delivery[]): Html {
  return html`<div class="table-scroll" role="region" aria-labelledby="deliveries-heading" tabindex="0"><table>
<caption class="visually-hidden">Deliveries, newest first</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1);
    return html`<tr>
<td>${whenText(delivery.created_at)}</td>
<th scope="row"><code>${delivery.event_type}</code><br><span class="hint">${delivery.event_id}</span></th>
<td><span class="badge badge-${delivery.status}">${delivery.status}</span>${last && html`<br><span class="hint">${last.status_code === null ? "no answer" : `HTTP ${last.status_code}`}, ${duration(last.duration_ms)}</span>`}</td>
<td><details><summary>${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? "" : "s"}<span class="visually-hidden"> of ${delivery.event_type} ${delivery.id}</span></summary>${attemptsList(delivery)}</details></td>
<td>${actionButton({ action: `/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, label: "Redeliver", csrfToken: chrome.csrfToken, describe: `${delivery.event_type} ${delivery.id}` })}</td>
</tr>`;
  })}</tbody></table></div>`;
}

export function endpointPage(options: {
  chrome: Chrome;
  endpoint: Endpoint;
  deliveries: readonly Delivery[];
  total: number;
  offset: number;
  secret?: string | null;
  message?: string | null;
}): string {
  const { chrome, endpoint, deliveries, total, offset } = options;
  const newer = offset > 0 ? Math.max(0, offset - DELIVERIES_PER_PAGE) : null;
  const older = offset + DELIVERIES_PER_PAGE < total ? offset + DELIVERIES_PER_PAGE : null;
  return page(
    endpoint.url,
    html`<p class="breadcrumb"><a href="/webhooks">Webhooks</a></p>
<h1 class="wrap">${endpoint.url}</h1>
${notice(options.message)}
${options.secret && html`<section class="card card-highlight" aria-labelledby="secret-heading"><h2 id="secret-heading">Signing secret</h2>${secretOnce({ id: "signing-secret", label: "Signing secret", value: options.secret, hint: "Your receiver checks each event's signature with it. Copy it now: it is not shown again." })}</section>`}
<section class="card" aria-labelledby="details-heading"><h2 id="details-heading">Details</h2>
<dl class="facts"><dt>Status</dt><dd>${statusBadge(endpoint.status)}</dd><dt>Description</dt><dd>${endpoint.description ?? "None"}</dd><dt>Events</dt><dd>${eventsText(endpoint)}</dd><dt>Created</dt><dd>${whenText(endpoint.created_at)}</dd>${endpoint.previous_secret_expires_at && html`<dt>Previous secret signs until</dt><dd>${whenText(endpoint.previous_secret_expires_at)}</dd>`}</dl>
<div class="button-row">
<a class="button button-secondary" href="/webhooks/${endpoint.id}/edit">Edit</a>
${actionButton({ action: `/webhooks/${endpoint.id}/test`, label: "Send test event", csrfToken: chrome.csrfToken })}
${
  endpoint.status === "disabled"
    ? actionButton({ action: `/webhooks/${endpoint.id}/enable`, label: "Enable", csrfToken: chrome.csrfToken })
    : actionButton({ action: `/webhooks/${endpoint.id}/disable`, label: "Disable", csrfToken: chrome.csrfToken })
}
<a class="button button-secondary" href="/webhooks/${endpoint.id}/rotate">Rotate secret</a>
<a class="button button-danger" href="/webhooks/${endpoint.id}/delete">Delete</a>
</div>
</section>
<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Deliveries</h2>
${deliveries.length === 0 ? html`<p class="empty">No deliveries yet. Send a test event to try the endpoint.</p>` : deliveryRows(chrome, endpoint, deliveries)}
${
  (newer !== null || older !== null) &&
  html`<nav aria-label="Delivery pages" class="pager">${newer !== null && html`<a href="/webhooks/${endpoint.id}?offset=${newer}">Newer</a>`} <span>${offset + 1}–${Math.min(offset + DELIVERIES_PER_PAGE, total)} of ${total}</span> ${older !== null && html`<a href="/webhooks/${endpoint.id}?offset=${older}">Older</a>`}</nav>`
}
</section>`,
    chrome,
  );
}

export function deleteEndpointPage(chrome: Chrome, endpoint: Endpoint): string {
  return page(
    "Delete endpoint",
    html`<h1>Delete this endpoint?</h1>
<p><code class="wrap">${endpoint.url}</code> receives no more events, and its delivery log is deleted with it.</p>
<div class="button-row">${actionButton({ action: `/webhooks/${endpoint.id}/delete`, label: "Delete endpoint", csrfToken: chrome.csrfToken, style: "danger" })} <a href="/webhooks/${endpoint.id}" class="button button-secondary">Cancel</a></div>`,
    chrome,
  );
}

export function rotateSecretPage(chrome: Chrome, endpoint: Endpoint): string {
  return page(
    "Rotate secret",
    html`<h1>Rotate the signing secret</h1>
<p>Events are signed with a new secret from now on. While your receiver changes over, the old secret can still sign alongside it.</p>
<form method="post" action="/webhooks/${endpoint.id}/rotate" class="card narrow">
${csrfInput(chrome.csrfToken)}
${select({ id: "previous", name: "previous_secret_valid_for", label: "The old secret", choices: PREVIOUS_SECRET_CHOICES, value: "86400" })}
<div class="button-row"><button type="submit" class="button button-primary">Rotate secret</button> <a href="/webhooks/${endpoint.id}" class="button button-secondary">Cancel</a></div>
</form>`,
    chrome,
  );
}
