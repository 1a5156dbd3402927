/** The API Keys section: a partner's keys of the deployment's environment, made, rolled and revoked here. */
import type { NewKey } from "../../partners/keys/key-management.js";
import type { StoredApiKey } from "../../partners/keys/api-key-store.js";
import { html, type Html } from "../../web/html.js";
import { actionButton, csrfInput, secretOnce, select, type FormErrors } from "./controls.js";
import { when } from "./format.js";
import { accessSummary, levelsOf, restrictionSummary } from "./key-access-view.js";
import { createKeyForm, EMPTY_KEY_FORM, type KeyFormValues } from "./key-form-view.js";
import { notice, page, type Chrome } from "./layout.js";

export const GRACE_CHOICES = [
  { value: "0", label: "End the old key now" },
  { value: "3600", label: "1 hour" },
  { value: "86400", label: "24 hours" },
  { value: "259200", label: "3 days" },
  { value: "604800", label: "7 days" },
] as const;

/** A key as listings show it: its prefix and last four characters, never enough to use it. */
export const masked = (key: Pick<StoredApiKey, "hint" | "lastFour">) => `${key.hint}…${key.lastFour || "????"}`;

function keyRows(keys: readonly StoredApiKey[]): Html {
  if (keys.length === 0) return html`<p class="empty">No keys yet. Create one above to call the API.</p>`;
  return html`<div class="table-scroll" role="region" aria-labelledby="keys-heading" tabindex="0"><table>
<caption class="visually-hidden">API keys of this environment</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Access</th><th scope="col">Restrictions</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map(
    (key) => html`<tr>
<th scope="row">${key.name}</th>
<td><code>${masked(key)}</code></td>
<td>${accessSummary(key)}</td>
<td>${restrictionSummary(key.restrictions)}</td>
<td>${when(key.createdAt)}</td>
<td>${when(key.lastUsedAt)}</td>
<td>${key.expiresAt ? when(key.expiresAt) : "Never"}</td>
<td class="actions"><a class="button button-secondary" href="/keys/${key.id}/roll" aria-label="Roll ${key.name}">Roll</a> <a class="button button-danger" href="/keys/${key.id}/revoke" aria-label="Revoke ${key.name}">Revoke</a></td>
</tr>`,
  )}</tbody></table></div>`;
}

/** What a key may do, where, and until when: beside a new key and on the roll page. */
function grantFacts(key: StoredApiKey): Html {
  return html`<dl class="facts grant-facts">
<dt>Access</dt><dd>${accessSummary(key)}</dd>
<dt>Restrictions</dt><dd>${restrictionSummary(key.restrictions)}</dd>
<dt>Expires</dt><dd>${key.expiresAt ? when(key.expiresAt) : "Never"}</dd>
</dl>`;
}

/** Whether the example call (the TLD list) is one the key may make. */
const readsCatalogue = (key: StoredApiKey) => key.scopes === null || levelsOf(key.scopes).domains !== "none";

export function keysPage(options: {
  chrome: Chrome;
  keys: readonly StoredApiKey[];
  created?: NewKey | null;
  apiBaseUrl: string;
  /** The create form as sent or as a preset fills it. */
  form?: KeyFormValues;
  errors?: FormErrors;
  message?: string | null;
}): string {
  const { chrome, created } = options;
  const environmentWord = chrome.environment === "sandbox" ? "sandbox" : "production";
  return page(
    "API keys",
    html`<h1>API keys</h1>
<p>Keys of the <strong>${environmentWord}</strong> environment. Your servers send one as <code>Authorization: Bearer …</code>; never put a key in a browser or an app. A key is shown once, when it is made: only a hash of it is kept.</p>
${notice(options.message)}
${
  created &&
  html`<section class="card card-highlight" aria-labelledby="new-key-heading"><h2 id="new-key-heading">Your new key “${created.stored.name}”</h2>
${secretOnce({ id: "new-key", label: "Secret key", value: created.key, hint: "Copy it now and keep it in your secret store. You will not see it again." })}
${grantFacts(created.stored)}
${
  readsCatalogue(created.stored) &&
  html`<p>Try it:</p>
<pre class="example"><code>curl -s ${options.apiBaseUrl}/api/v1/domains/tlds -H 'Authorization: Bearer ${created.key}'</code></pre>`
}
</section>`
}
<section class="card" aria-labelledby="create-heading"><h2 id="create-heading">Create a key</h2>
${createKeyForm({ csrfToken: chrome.csrfToken, values: options.form ?? EMPTY_KEY_FORM, errors: options.errors })}
</section>
<section aria-labelledby="keys-heading"><h2 id="keys-heading">Keys</h2>
${keyRows(options.keys)}
</section>`,
    chrome,
  );
}

export function revokeKeyPage(chrome: Chrome, key: StoredApiKey): string {
  return page(
    `Revoke ${key.name}`,
    html`<h1>Revoke “${key.name}”?</h1>
<p>Every request made with <code>${masked(key)}</code> is refused from the next one on, on every instance. This cannot be undone; make a new key first if something still uses this one.</p>
<div class="button-row">${actionButton({ action: `/keys/${key.id}/revoke`, label: "Revoke key", csrfToken: chrome.csrfToken, style: "danger" })} <a href="/keys" class="button button-secondary">Cancel</a></div>`,
    chrome,
  );
}

export function rollKeyPage(chrome: Chrome, key: StoredApiKey): string {
  return page(
    `Roll ${key.name}`,
    html`<h1>Roll “${key.name}”</h1>
<p>Rolling makes a new key with the same name and the same access. The old key (<code>${masked(key)}</code>) keeps working for the time you choose, so you can deploy the new one first; then it is refused.</p>
${grantFacts(key)}
<form method="post" action="/keys/${key.id}/roll" class="card narrow">
${csrfInput(chrome.csrfToken)}
${select({ id: "grace", name: "grace_seconds", label: "Keep the old key working for", choices: GRACE_CHOICES, value: "86400" })}
<div class="button-row"><button type="submit" class="button button-primary">Roll key</button> <a href="/keys" class="button button-secondary">Cancel</a></div>
</form>`,
    chrome,
  );
}
