/**
 * A domain's transfer settings: the registrar lock as a switch, the transfer code revealed only on
 * request (never in the page by default), and a transfer another registrar asked for, to approve
 * or reject.
 */
import type { DomainRow } from "../../domain/domains/domain-store.js";
import type { OutboundTransferRow } from "../../domain/domains/transfer-out-store.js";
import { NO_ERRORS, type FormErrors } from "../../web/controls.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { csrfInput, errorSummary } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

export interface TransferSettingsView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  transferLock: boolean;
  /** When the code can first be read (the registries' 60 days); null once it can. */
  codeAvailableFrom: Date | null;
  /** The code, only on the page that answers the user's request to see it. */
  revealedCode: string | null;
  latestTransfer: OutboundTransferRow | null;
  notice: string | null;
  errors?: FormErrors;
}

function lockSwitch(l: Localizer, view: TransferSettingsView): Html {
  const on = view.transferLock;
  return html`<div class="card">
<form method="post" action="/domains/${view.domain.id}/transfer-lock" class="switch-form">
${csrfInput(view.csrfToken)}
<button type="submit" class="switch" role="switch" aria-checked="${String(on)}" name="transfer_lock" value="${String(!on)}" aria-describedby="transfer-lock-hint"><span class="switch-label">${l.t.transferOut.lock}</span><span class="switch-state" aria-hidden="true">${on ? l.t.on : l.t.off}</span></button>
</form>
<p class="hint" id="transfer-lock-hint">${l.t.transferOut.lockHint}</p>
</div>`;
}

function codeSection(l: Localizer, view: TransferSettingsView): Html {
  const { t } = l;
  let content: Html;
  if (view.codeAvailableFrom) content = html`<p>${t.transferOut.codeNotYet(l.dateText(view.codeAvailableFrom))}</p>`;
  else if (view.revealedCode)
    content = html`<p><label for="transfer-code">${t.transferOut.codeLabel}</label></p>
<p><input type="text" id="transfer-code" class="transfer-code" value="${view.revealedCode}" readonly spellcheck="false" autocomplete="off"></p>
${view.transferLock && html`<p class="hint">${t.transferOut.codeWhileLocked}</p>`}`;
  else
    content = html`<form method="post" action="/domains/${view.domain.id}/transfer-code">
${csrfInput(view.csrfToken)}
<button type="submit">${t.transferOut.revealCode}</button>
</form>`;
  return html`<section class="card" aria-labelledby="transfer-code-title">
<h2 id="transfer-code-title">${t.transferOut.codeTitle}</h2>
<p class="hint">${t.transferOut.codeIntro}</p>
${content}
</section>`;
}

function transferSection(l: Localizer, view: TransferSettingsView): Html | null {
  const { t } = l;
  const transfer = view.latestTransfer;
  if (!transfer) return null;
  if (transfer.status !== "pending")
    return html`<p class="hint">${t.transferOut.lastEnded(transfer.gainingRegistrar, t.transferOut.outcomes[transfer.status], l.dateText(transfer.completedAt ?? transfer.requestedAt))}</p>`;
  return html`<section class="card warning" aria-labelledby="transfer-request-title">
<h2 id="transfer-request-title">${t.transferOut.pendingTitle}</h2>
<p>${t.transferOut.pending(transfer.gainingRegistrar, l.dateText(transfer.requestedAt), l.dateText(transfer.autoApproveAt))}</p>
<form method="post" action="/domains/${view.domain.id}/transfer-out" class="actions">
${csrfInput(view.csrfToken)}
<button type="submit" class="primary" name="decision" value="reject">${t.transferOut.reject}</button>
<button type="submit" class="danger" name="decision" value="approve">${t.transferOut.approve}</button>
</form>
</section>`;
}

export function transferSettingsPage(view: TransferSettingsView): string {
  const { l } = view.chrome;
  const { t } = l;
  const { domain } = view;
  const active = domain.status === "active";
  const body = html`<p class="back"><a href="/domains#domain-${domain.id}">${t.domains.title}</a></p>
<h1>${t.transferOut.title(domain.name)}</h1>
${notice(view.notice)}
${errorSummary(l, view.errors ?? NO_ERRORS, t.transferOut.notChanged)}
${transferSection(l, view)}
${active ? html`${lockSwitch(l, view)}${codeSection(l, view)}` : html`<p>${t.transferOut.notActive(t.statuses[domain.status])}</p>`}`;
  return page(l, t.transferOut.title(domain.name), body, view.chrome);
}

/** After an approval: the domain has left; a page of its own says so, with the way back to the list. */
export function transferredPage(view: { chrome: Chrome; domainName: string; registrar: string }): string {
  const { l } = view.chrome;
  const { t } = l;
  const body = html`<h1>${t.transferOut.transferredTitle}</h1>
<p>${t.transferOut.transferred(view.domainName, view.registrar)}</p>
<p><a href="/domains">${t.domains.title}</a></p>`;
  return page(l, t.transferOut.transferredTitle, body, view.chrome);
}
