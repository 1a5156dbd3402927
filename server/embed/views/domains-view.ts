/** "Your domains": every domain of the user with its settings and renewal. */
import { entityTag } from "../../concurrency/entity-tags.js";
import type { DomainRow } from "../../store/types.js";
import { NO_ERRORS, type FormErrors, type FormState } from "../forms.js";
import { html, type Html } from "../../web/html.js";
import { csrfInput, errorSummary, select, YEAR_CHOICES } from "./controls.js";
import { dateOf, money } from "./format.js";
import { notice, page, type Chrome } from "./layout.js";

export interface DomainsView {
  chrome: Chrome;
  csrfToken: string;
  domains: ReadonlyArray<DomainRow & { recordCount: number }>;
  notice: string | null;
  /** A refused settings change or renewal, shown on the domain it concerns. */
  failed?: { domainId: string; form: "settings" | "renew"; state: FormState };
}

const STATUS_LABELS: Record<DomainRow["status"], string> = {
  active: "Active",
  pending: "Pending",
  expired: "Expired",
  suspended: "Suspended",
};

export const statusBadge = (status: DomainRow["status"]) => html`<span class="status status-${status}">${STATUS_LABELS[status]}</span>`;

/** A setting as a switch: one submit button whose name and value are the new setting, so it works without scripts. */
export function settingSwitch(
  domain: DomainRow,
  csrfToken: string,
  setting: "auto_renew" | "whois_privacy",
  label: string,
  on: boolean,
): Html {
  return html`<form method="post" action="/domains/${domain.id}/settings" class="switch-form">
${csrfInput(csrfToken)}
<input type="hidden" name="etag" value="${entityTag(domain)}">
<button type="submit" class="switch" role="switch" aria-checked="${String(on)}" name="${setting}" value="${String(!on)}"><span class="switch-label">${label}</span><span class="switch-state" aria-hidden="true">${on ? "On" : "Off"}</span></button>
</form>`;
}

function renewForm(domain: DomainRow, csrfToken: string, state: FormState | undefined): Html {
  const errors: FormErrors = state?.errors ?? NO_ERRORS;
  return html`<form method="post" action="/domains/${domain.id}/renew" class="inline-form" novalidate>
${csrfInput(csrfToken)}
${errorSummary(errors, "The domain was not renewed")}
${select({ id: `renew-${domain.id}-years`, name: "years", label: `Renew ${domain.name} for`, value: state?.values.years ?? "1", choices: YEAR_CHOICES, error: errors.fields.years, hint: `${money(domain.renewalPrice, domain.currency)} per year` })}
<button type="submit">Renew</button>
</form>`;
}

function domainCard(listed: DomainsView["domains"][number], view: DomainsView): Html {
  // The switches carry the stored domain's entity tag: the count shown beside it is not part of it.
  const { recordCount, ...domain } = listed;
  const failed = view.failed?.domainId === domain.id ? view.failed : undefined;
  return html`<li class="card" id="domain-${domain.id}">
<h2><a href="/domains/${domain.id}">${domain.name}</a></h2>
<dl class="facts">
<div><dt>Status</dt><dd>${statusBadge(domain.status)}</dd></div>
<div><dt>Expires</dt><dd>${dateOf(domain.expiresAt)}</dd></div>
<div><dt>DNS records</dt><dd><a href="/domains/${domain.id}">${recordCount} ${recordCount === 1 ? "record" : "records"}<span class="visually-hidden"> of ${domain.name}</span></a></dd></div>
</dl>
${failed?.form === "settings" && errorSummary(failed.state.errors, "The setting was not changed")}
<div class="switches" role="group" aria-label="Settings of ${domain.name}">
${settingSwitch(domain, view.csrfToken, "auto_renew", "Auto-renew", domain.autoRenew)}
${settingSwitch(domain, view.csrfToken, "whois_privacy", "WHOIS privacy", domain.whoisPrivacy)}
</div>
${renewForm(domain, view.csrfToken, failed?.form === "renew" ? failed.state : undefined)}
</li>`;
}

export function domainsPage(view: DomainsView): string {
  const list =
    view.domains.length > 0
      ? html`<ul class="cards">${view.domains.map((domain) => domainCard(domain, view))}</ul>`
      : html`<p>You have no domains yet. <a href="/search">Find a domain</a>.</p>`;
  return page("Your domains", html`<h1>Your domains</h1>${notice(view.notice)}${list}`, view.chrome);
}
