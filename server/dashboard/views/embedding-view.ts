/** The Embedding section: which origins may frame the embedded interface that login_url opens. */
import { html } from "../../web/html.js";
import { csrfInput, errorSummary, NO_ERRORS, textarea, type FormErrors } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

export const MAX_FRAMING_ORIGINS = 20;

export function embeddingPage(options: {
  chrome: Chrome;
  configured: readonly string[];
  origins: string;
  errors?: FormErrors;
  message?: string | null;
}): string {
  const { chrome } = options;
  const errors = options.errors ?? NO_ERRORS;
  return page(
    "Embedding",
    html`<h1>Embedding</h1>
<p>Your app shows the embedded interface in an iframe at the <code>login_url</code> the API answers. Browsers show it only inside pages of the origins listed here (<code>Content-Security-Policy: frame-ancestors</code>); with none, nothing may frame it.</p>
${notice(options.message)}
<section class="card" aria-labelledby="origins-heading"><h2 id="origins-heading">Allowed origins of this environment</h2>
${errorSummary(errors)}
<form method="post" action="/embedding" novalidate>
${csrfInput(chrome.csrfToken)}
${textarea({ id: "origins", name: "origins", label: "Origins, one per line", rows: 6, value: options.origins, hint: `Such as https://app.example.com or https://*.example.com; http only for localhost and 127.0.0.1. At most ${MAX_FRAMING_ORIGINS}.`, error: errors.fields.origins })}
<button type="submit" class="button button-primary">Save origins</button>
</form>
</section>
${
  options.configured.length > 0 &&
  html`<section class="card" aria-labelledby="configured-heading"><h2 id="configured-heading">Set by the deployment</h2><p>These come from the server's configuration and are allowed too:</p><ul>${options.configured.map((origin) => html`<li><code>${origin}</code></li>`)}</ul></section>`
}`,
    chrome,
  );
}
