/** The Sandbox section: the partner's clock, what moving it made due, and a reset of the partner's sandbox data. */
import type { Change } from "../../application/due-changes.js";
import type { SandboxClockView } from "../../application/sandbox-actions.js";
import { html, type Html } from "../../web/html.js";
import { actionButton, csrfInput, errorSummary, input, NO_ERRORS, select, type FormErrors } from "./controls.js";
import { whenText } from "./format.js";
import { notice, page, type Chrome } from "./layout.js";

export const UNIT_SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
export type ClockUnit = keyof typeof UNIT_SECONDS;

function changesList(changes: readonly Change[]): Html {
  if (changes.length === 0) return html`<p>Nothing fell due on the way.</p>`;
  return html`<p>What fell due on the way, in order:</p><ol class="changes">${changes.map(
    (change) => html`<li>${whenText(change.at)}: ${change.object} <code>${change.id}</code> ${change.from} → ${change.to}</li>`,
  )}</ol>`;
}

export function sandboxPage(options: {
  chrome: Chrome;
  clock: SandboxClockView;
  changes?: readonly Change[] | null;
  values?: { amount: string; unit: string };
  errors?: FormErrors;
  message?: string | null;
}): string {
  const { chrome, clock } = options;
  const errors = options.errors ?? NO_ERRORS;
  const days = Math.floor(clock.advanced_seconds / 86_400);
  return page(
    "Sandbox",
    html`<h1>Sandbox</h1>
${notice(options.message)}
<section class="card" aria-labelledby="clock-heading"><h2 id="clock-heading">Your sandbox clock</h2>
<p>Time as your sandbox sees it: expiries, auto-renewals, transfer steps and sessions follow it. Only your account's clock moves.</p>
<dl class="facts"><dt>Sandbox time</dt><dd>${whenText(clock.now)}</dd><dt>Ahead of real time by</dt><dd>${clock.advanced_seconds === 0 ? "Nothing" : `${days} days ${Math.floor((clock.advanced_seconds % 86_400) / 3600)} hours ${Math.floor((clock.advanced_seconds % 3600) / 60)} minutes`}</dd></dl>
${options.changes && html`<div class="result" role="status" tabindex="-1">${changesList(options.changes)}</div>`}
${errorSummary(errors)}
<form method="post" action="/sandbox/clock" class="row-form" novalidate>
${csrfInput(chrome.csrfToken)}
${input({ id: "amount", name: "amount", label: "Advance by", type: "number", min: 1, value: options.values?.amount ?? "1", error: errors.fields.amount, required: true })}
${select({
  id: "unit",
  name: "unit",
  label: "Unit",
  choices: [
    { value: "minutes", label: "minutes" },
    { value: "hours", label: "hours" },
    { value: "days", label: "days" },
  ],
  value: options.values?.unit ?? "days",
})}
<button type="submit" class="button button-primary">Advance clock</button>
</form>
</section>
<section class="card" aria-labelledby="reset-heading"><h2 id="reset-heading">Reset sandbox data</h2>
<p>Deletes every user of your sandbox with their domains, records, transfers and sessions, and sets your clock back (rate limits run on the real clock and stay). Keys, webhook endpoints and your team stay.</p>
<a class="button button-danger" href="/sandbox/reset">Reset sandbox data…</a>
</section>`,
    chrome,
  );
}

export function resetSandboxPage(chrome: Chrome, users: number): string {
  return page(
    "Reset sandbox data",
    html`<h1>Reset sandbox data?</h1>
<p>This deletes <strong>${users} user${users === 1 ? "" : "s"}</strong> of your sandbox with all their domains, DNS records, transfers and sessions, and sets your sandbox clock back. It cannot be undone.</p>
<div class="button-row">${actionButton({ action: "/sandbox/reset", label: "Delete sandbox data", csrfToken: chrome.csrfToken, style: "danger" })} <a href="/sandbox" class="button button-secondary">Cancel</a></div>`,
    chrome,
  );
}
