/** The Embedding section: which origins may frame the embedded interface that login_url opens, and the partner's look in it. */
import type { Branding } from "../../partners/branding/branding-store.js";
import { MAX_LOGO_BYTES } from "../../partners/branding/logo.js";
import { html, type Html } from "../../web/html.js";
import { actionButton, csrfInput, errorSummary, input, NO_ERRORS, textarea, type FormErrors } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

export const MAX_FRAMING_ORIGINS = 20;

export function embeddingPage(options: {
  chrome: Chrome;
  configured: readonly string[];
  origins: string;
  errors?: FormErrors;
  message?: string | null;
  look: Branding;
  /** The accent field as sent, when it was refused. */
  accentValue?: string;
  accentErrors?: FormErrors;
  logoErrors?: FormErrors;
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
${lookSection(options)}
${
  options.configured.length > 0 &&
  html`<section class="card" aria-labelledby="configured-heading"><h2 id="configured-heading">Set by the deployment</h2><p>These come from the server's configuration and are allowed too:</p><ul>${options.configured.map((origin) => html`<li><code>${origin}</code></li>`)}</ul></section>`
}`,
    chrome,
  );
}

/** The partner's accent colour and logo, as the embedded interface shows them. */
function lookSection(options: Parameters<typeof embeddingPage>[0]): Html {
  const { chrome, look } = options;
  const accentErrors = options.accentErrors ?? NO_ERRORS;
  const logoErrors = options.logoErrors ?? NO_ERRORS;
  return html`<section class="card" aria-labelledby="look-heading"><h2 id="look-heading">Your look in the embedded interface</h2>
<p>Buttons and links take your accent colour, and your logo heads every page. A colour must keep text readable (WCAG AA contrast of 4.5:1 against white), so very light colours are refused.</p>
<h3>Accent colour</h3>
<p>Now: ${look.accentColour ? html`<code>${look.accentColour}</code>` : "the interface's own blue"}</p>
${errorSummary(accentErrors)}
<form method="post" action="/embedding/accent" novalidate>
${csrfInput(chrome.csrfToken)}
${input({ id: "accent-colour", name: "accent_colour", label: "Accent colour", value: options.accentValue ?? look.accentColour ?? "", hint: "Any CSS colour, such as #6a1b9a or rebeccapurple", error: accentErrors.fields.accent_colour })}
<button type="submit" class="button button-primary">Save colour</button>
</form>
${look.accentColour && actionButton({ action: "/embedding/accent", label: "Use the interface's own colour", csrfToken: chrome.csrfToken, hidden: { accent_colour: "" } })}
<h3>Logo</h3>
${look.logo ? html`<p><img class="logo-preview" src="/embedding/logo?v=${look.logo.version}" alt="Your logo as the embedded interface shows it"></p>` : html`<p>No logo yet.</p>`}
${errorSummary(logoErrors)}
<form method="post" action="/embedding/logo" enctype="multipart/form-data" novalidate>
${csrfInput(chrome.csrfToken)}
<div class="field${logoErrors.fields.logo ? " field-error" : ""}">
<label for="logo">Logo image</label>
<p class="hint" id="logo-hint">PNG, JPEG or WebP, at most ${MAX_LOGO_BYTES / 1024} KB; shown at most 40 pixels high.</p>
${logoErrors.fields.logo && html`<p class="error-message" id="logo-error"><span class="visually-hidden">Error: </span>${logoErrors.fields.logo}</p>`}
<input type="file" id="logo" name="logo" accept="image/png,image/jpeg,image/webp" aria-describedby="logo-hint${logoErrors.fields.logo ? " logo-error" : ""}"${logoErrors.fields.logo && html` aria-invalid="true"`}>
</div>
<button type="submit" class="button button-primary">Upload logo</button>
</form>
${look.logo && actionButton({ action: "/embedding/logo/remove", label: "Remove the logo", csrfToken: chrome.csrfToken, style: "danger" })}
</section>`;
}
