/**
 * A domain's delegation: whether its DNS is served by the service's nameservers or custom ones,
 * the switch between them (with the warning that the records here stop applying), the change
 * pending at the registry, and the DNSSEC DS records published there.
 */
import type { DsRecordRow } from "../../domain/domains/delegation-store.js";
import { type Delegation, isServiceNameservers } from "../../domain/domains/delegation.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { DNSSEC_ALGORITHMS, DIGEST_LENGTHS } from "../../domain/domains/ds-records.js";
import { NO_ERRORS, type FormErrors } from "../../web/controls.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { breakableName, csrfInput, errorSummary, select, textInput } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

export interface DelegationView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  delegation: Delegation;
  dsRecords: DsRecordRow[];
  notice: string | null;
  /** What the nameserver form was sent with, shown again beside its errors. */
  nameserverForm?: { mode: "ours" | "custom"; nameservers: string; errors: FormErrors };
  dsForm?: { values: Record<string, string>; errors: FormErrors };
}

const list = (hosts: readonly string[]) => hosts.join(", ");

function state(l: Localizer, view: DelegationView): Html {
  const { t } = l;
  const { delegation } = view;
  return html`<section class="card${delegation.custom ? " warning" : ""}" aria-labelledby="delegation-state-title">
<h2 id="delegation-state-title">${t.delegation.stateTitle}</h2>
<p>${delegation.custom ? t.delegation.usingCustom(list(delegation.nameservers)) : t.delegation.usingOurs}</p>
${delegation.pending && html`<p><strong>${t.delegation.pending(list(delegation.pending.nameservers), l.dateText(delegation.pending.completesAt))}</strong></p>`}
</section>`;
}

function nameserverForm(l: Localizer, view: DelegationView): Html {
  const { t } = l;
  const sent = view.nameserverForm;
  const errors = sent?.errors ?? NO_ERRORS;
  // The form starts from where the domain is headed: the pending change, else what is in effect.
  const headedFor = view.delegation.pending?.nameservers ?? view.delegation.nameservers;
  const headedCustom = !isServiceNameservers(headedFor);
  const custom = (sent?.mode ?? (headedCustom ? "custom" : "ours")) === "custom";
  const shown = sent?.nameservers ?? (headedCustom ? list(headedFor) : "");
  const confirmError = errors.fields.confirm;
  return html`<section class="card" aria-labelledby="nameservers-form-title">
<h2 id="nameservers-form-title">${t.delegation.chooseTitle}</h2>
<form method="post" action="/domains/${view.domain.id}/nameservers" novalidate>
${csrfInput(view.csrfToken)}
${errorSummary(l, errors, t.delegation.notChanged)}
<fieldset class="choices">
<legend>${t.delegation.chooseLegend}</legend>
<div class="choice"><input type="radio" id="mode-ours" name="mode" value="ours"${!custom && html` checked`} aria-describedby="mode-ours-hint"><label for="mode-ours">${t.delegation.ours}</label>
<p class="hint" id="mode-ours-hint">${t.delegation.oursHint}</p></div>
<div class="choice"><input type="radio" id="mode-custom" name="mode" value="custom"${custom && html` checked`} aria-describedby="mode-custom-hint"><label for="mode-custom">${t.delegation.custom}</label>
<p class="hint" id="mode-custom-hint">${t.delegation.customHint}</p></div>
</fieldset>
${textInput({ l, id: "nameservers", name: "nameservers", label: t.delegation.nameservers, hint: t.delegation.nameserversHint, value: shown, error: errors.fields.nameservers, spellcheck: false })}
<div class="warning-note warning" role="note" aria-labelledby="records-warning-title">
<p id="records-warning-title"><strong>${t.delegation.warningTitle}</strong></p>
<p>${t.delegation.warning}</p>
${
  !view.delegation.custom &&
  html`<div class="field${confirmError ? " field-error" : ""}">
${confirmError && html`<p class="error-message" id="confirm-error"><span class="visually-hidden">${t.controls.errorPrefix} </span>${confirmError}</p>`}
<div class="choice"><input type="checkbox" id="confirm" name="confirm" value="yes"${confirmError && html` aria-invalid="true" aria-describedby="confirm-error"`}><label for="confirm">${t.delegation.confirm}</label></div>
</div>`
}
</div>
<button type="submit" class="primary">${t.delegation.save}</button>
</form>
</section>`;
}

function dsSection(l: Localizer, view: DelegationView): Html {
  const { t } = l;
  const errors = view.dsForm?.errors ?? NO_ERRORS;
  const values = view.dsForm?.values ?? {};
  const rows = view.dsRecords.map(
    (ds) => html`<tr>
<td data-label="${t.delegation.keyTag}">${String(ds.keyTag)}</td>
<td data-label="${t.delegation.algorithm}">${algorithmName(ds.algorithm)}</td>
<td data-label="${t.delegation.digestType}">${digestName(ds.digestType)}</td>
<td data-label="${t.delegation.digest}"><code class="digest">${ds.digest}</code></td>
<td class="record-actions"><form method="post" action="/domains/${view.domain.id}/ds/${ds.id}/delete" class="inline-action">
${csrfInput(view.csrfToken)}
<button type="submit" class="danger">${t.delegation.dsRemove}<span class="visually-hidden"> ${t.delegation.dsDescribed(String(ds.keyTag))}</span></button>
</form></td>
</tr>`,
  );
  const table =
    rows.length === 0
      ? html`<p>${t.delegation.dsNone}</p>`
      : html`<table class="records ds-records">
<caption class="visually-hidden">${t.delegation.dsTitle}</caption>
<thead><tr><th scope="col">${t.delegation.keyTag}</th><th scope="col">${t.delegation.algorithm}</th><th scope="col">${t.delegation.digestType}</th><th scope="col">${t.delegation.digest}</th><th scope="col"><span class="visually-hidden">${t.delegation.actions}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
  return html`<section aria-labelledby="ds-title">
<h2 id="ds-title">${t.delegation.dsTitle}</h2>
<p class="hint">${t.delegation.dsIntro}</p>
${table}
<section class="card" aria-labelledby="ds-add-title">
<h3 id="ds-add-title">${t.delegation.dsAdd}</h3>
<form method="post" action="/domains/${view.domain.id}/ds" novalidate>
${csrfInput(view.csrfToken)}
${errorSummary(l, errors, t.delegation.dsNotAdded)}
${textInput({ l, id: "ds-key-tag", name: "key_tag", label: t.delegation.keyTag, value: values.key_tag ?? "", error: errors.fields.key_tag, inputmode: "numeric" })}
${select({ l, id: "ds-algorithm", name: "algorithm", label: t.delegation.algorithm, value: values.algorithm ?? "13", error: errors.fields.algorithm, choices: DNSSEC_ALGORITHMS.map((number) => ({ value: String(number), label: algorithmName(number) })) })}
${select({ l, id: "ds-digest-type", name: "digest_type", label: t.delegation.digestType, value: values.digest_type ?? "2", error: errors.fields.digest_type, choices: Object.keys(DIGEST_LENGTHS).map((type) => ({ value: type, label: digestName(Number(type)) })) })}
${textInput({ l, id: "ds-digest", name: "digest", label: t.delegation.digest, hint: t.delegation.digestHint, value: values.digest ?? "", error: errors.fields.digest, spellcheck: false })}
<button type="submit">${t.delegation.dsAddButton}</button>
</form>
</section>
</section>`;
}

/** IANA's names: the same in every language. */
const ALGORITHM_NAMES: Readonly<Record<number, string>> = {
  8: "RSA/SHA-256",
  10: "RSA/SHA-512",
  13: "ECDSA P-256/SHA-256",
  14: "ECDSA P-384/SHA-384",
  15: "Ed25519",
  16: "Ed448",
};
const DIGEST_NAMES: Readonly<Record<number, string>> = { 1: "SHA-1", 2: "SHA-256", 4: "SHA-384" };
const algorithmName = (number: number) => `${number} (${ALGORITHM_NAMES[number] ?? "?"})`;
const digestName = (type: number) => `${type} (${DIGEST_NAMES[type] ?? "?"})`;

export function delegationPage(view: DelegationView): string {
  const { l } = view.chrome;
  const { t } = l;
  const { domain } = view;
  const active = domain.status === "active";
  const body = html`<p class="back"><a href="/domains/${domain.id}">${breakableName(domain.name)}</a></p>
<h1>${t.delegation.title(domain.name)}</h1>
${notice(view.notice)}
${state(l, view)}
${active ? html`${nameserverForm(l, view)}${dsSection(l, view)}` : html`<p>${t.delegation.notActive(t.statuses[domain.status])}</p>`}`;
  return page(l, t.delegation.title(domain.name), body, view.chrome);
}
