/** "Your domains": every domain of the user with its settings and renewal; the renewal's review; turning WHOIS privacy off. */
import { entityTag } from "../../platform/entity-tags.js";
import { isRenewable } from "../../domain/domains/renewal.js";
import type { Cents } from "../../platform/money.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { NO_ERRORS, type FormErrors } from "../../web/controls.js";
import type { FormState } from "./form-state.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { breakableName, csrfInput, errorSummary, facts, reviewCard, select, yearChoices } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

export interface ListedDomain extends DomainRow {
  recordCount: number;
  /** The most years it can be renewed for now (0: as far ahead as allowed). */
  renewableYears: number;
}

export interface DomainsView {
  chrome: Chrome;
  csrfToken: string;
  domains: readonly ListedDomain[];
  notice: Html | string | null;
  /** A refused settings change or renewal, shown on the domain it concerns. */
  failed?: { domainId: string; form: "settings" | "renew"; state: FormState };
}

export const statusBadge = (l: Localizer, status: DomainRow["status"]) =>
  html`<span class="status status-${status}">${l.t.statuses[status]}</span>`;

/**
 * A setting as a switch: one submit button whose name and value are the new setting, so it works
 * without scripts. Turning WHOIS privacy off first asks, on a page of its own, what becomes public.
 */
function settingSwitch(
  l: Localizer,
  domain: DomainRow,
  csrfToken: string,
  setting: "auto_renew" | "whois_privacy",
  label: string,
  on: boolean,
): Html {
  const button = html`<button type="submit" class="switch" role="switch" aria-checked="${String(on)}"${setting === "whois_privacy" && on ? null : html` name="${setting}" value="${String(!on)}"`}><span class="switch-label">${label}</span><span class="switch-state" aria-hidden="true">${on ? l.t.on : l.t.off}</span></button>`;
  if (setting === "whois_privacy" && on)
    return html`<form method="get" action="/domains/${domain.id}/whois-privacy" class="switch-form">${button}</form>`;
  return html`<form method="post" action="/domains/${domain.id}/settings" class="switch-form">
${csrfInput(csrfToken)}
<input type="hidden" name="etag" value="${entityTag(domain)}">
${button}
</form>`;
}

function renewForm(l: Localizer, domain: ListedDomain, state: FormState | undefined): Html {
  const { t } = l;
  const errors: FormErrors = state?.errors ?? NO_ERRORS;
  if (domain.renewableYears === 0) return html`<p class="hint">${t.domains.renewedToTheLimit(domain.name)}</p>`;
  if (!isRenewable(domain)) return html`<p class="hint">${t.domains.cannotRenew(domain.name, t.statuses[domain.status])}</p>`;
  // A review comes first: GET, so nothing is charged until its confirmation.
  return html`<form method="get" action="/domains/${domain.id}/renew" class="inline-form" novalidate>
${errorSummary(l, errors, t.renewal.notRenewed)}
${select({ l, id: `renew-${domain.id}-years`, name: "years", label: t.domains.renewFor(domain.name), value: state?.values.years ?? "1", choices: yearChoices(l, domain.renewableYears), error: errors.fields.years, hint: t.domains.perYear(l.money(domain.renewalPrice, domain.currency)) })}
<button type="submit">${t.domains.reviewRenewal}</button>
</form>`;
}

function domainCard(l: Localizer, listed: ListedDomain, view: DomainsView): Html {
  const { t } = l;
  // The switches carry the stored domain's entity tag: what the list adds is not part of it.
  const { recordCount, renewableYears, ...domain } = listed;
  const failed = view.failed?.domainId === domain.id ? view.failed : undefined;
  return html`<li class="card" id="domain-${domain.id}">
<h2><a href="/domains/${domain.id}">${breakableName(domain.name)}</a></h2>
${facts([
  [t.domains.status, statusBadge(l, domain.status)],
  [t.domains.expires, l.date(domain.expiresAt)],
  [
    t.domains.dnsRecords,
    html`<a href="/domains/${domain.id}">${t.domains.recordCount(recordCount)}<span class="visually-hidden">${t.domains.ofDomain(domain.name)}</span></a>`,
  ],
])}
${failed?.form === "settings" && errorSummary(l, failed.state.errors, t.domains.settingNotChanged)}
<div class="switches" role="group" aria-label="${t.domains.settingsOf(domain.name)}">
${settingSwitch(l, domain, view.csrfToken, "auto_renew", t.domains.autoRenew, domain.autoRenew)}
${settingSwitch(l, domain, view.csrfToken, "whois_privacy", t.domains.whoisPrivacy, domain.whoisPrivacy)}
</div>
${renewForm(l, listed, failed?.form === "renew" ? failed.state : undefined)}
<p><a href="/domains/${domain.id}/transfer">${t.transferOut.link}<span class="visually-hidden">${t.domains.ofDomain(domain.name)}</span></a></p>
</li>`;
}

export function domainsPage(view: DomainsView): string {
  const { l } = view.chrome;
  const list =
    view.domains.length > 0
      ? html`<ul class="cards">${view.domains.map((domain) => domainCard(l, domain, view))}</ul>`
      : html`<p>${l.t.domains.empty} <a href="/search">${l.t.domains.findOne}</a>.</p>`;
  return page(l, l.t.domains.title, html`<h1>${l.t.domains.title}</h1>${notice(view.notice)}${list}`, view.chrome);
}

export interface RenewalReview {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  years: number;
  total: Cents;
  until: Date;
  errors: FormErrors;
}

/** What a renewal costs and where it leaves the domain; the confirmation carries the total shown. */
export function renewalReviewPage(view: RenewalReview): string {
  const { l } = view.chrome;
  const { t } = l;
  const { domain } = view;
  const total = l.money(view.total, domain.currency);
  const body = html`<p class="back"><a href="/domains#domain-${domain.id}">${t.domains.title}</a></p>
<h1>${t.renewal.title(domain.name)}</h1>
${errorSummary(l, view.errors, t.renewal.notRenewed)}
${reviewCard({
  intro: t.renewal.intro,
  facts: [
    [t.renewal.domain, breakableName(domain.name)],
    [t.renewal.period, t.controls.years(view.years)],
    [t.renewal.pricePerYear, l.money(domain.renewalPrice, domain.currency)],
    [t.renewal.total, html`<strong class="total">${total}</strong>`],
    [t.renewal.runsUntil, l.date(view.until)],
  ],
  action: `/domains/${domain.id}/renew`,
  csrfToken: view.csrfToken,
  hidden: { years: String(view.years), expected_total: String(view.total) },
  confirm: t.renewal.confirm(total),
  cancel: { href: `/domains#domain-${domain.id}`, label: t.cancel },
})}`;
  return page(l, t.renewal.title(domain.name), body, view.chrome);
}

/** Before WHOIS privacy goes off: what becomes public, and a confirmation that carries the domain's version. */
export function privacyOffPage(view: { chrome: Chrome; csrfToken: string; domain: DomainRow }): string {
  const { l } = view.chrome;
  const { t } = l;
  const { domain } = view;
  const body = html`<p class="back"><a href="/domains#domain-${domain.id}">${t.domains.title}</a></p>
<h1>${t.privacy.title(domain.name)}</h1>
<section class="card warning" aria-labelledby="privacy-warning">
<p id="privacy-warning">${t.privacy.warning}</p>
<ul>${t.privacy.published.map((item) => html`<li>${item}</li>`)}</ul>
<p>${t.privacy.consequence}</p>
<form method="post" action="/domains/${domain.id}/settings" class="actions">
${csrfInput(view.csrfToken)}
<input type="hidden" name="etag" value="${entityTag(domain)}">
<button type="submit" class="danger" name="whois_privacy" value="false">${t.privacy.confirm}</button>
<a href="/domains#domain-${domain.id}">${t.privacy.keep}</a>
</form>
</section>`;
  return page(l, t.privacy.title(domain.name), body, view.chrome);
}
