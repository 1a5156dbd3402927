/** "Find a domain": availability with price, premium flag and suggestions, and the purchase form. */
import type { components } from "../../../generated/types/full.js";
import { NO_ERRORS, type FormErrors, type FormState } from "../forms.js";
import { html, type Html } from "../../web/html.js";
import { csrfInput, errorSummary, select, textInput, YEAR_CHOICES } from "./controls.js";
import { money } from "./format.js";
import { page, type Chrome } from "./layout.js";

type Availability = components["schemas"]["Availability"];

export interface SearchView {
  chrome: Chrome;
  csrfToken: string;
  query: string;
  /** Why the name cannot be checked (not a name, a TLD not offered). */
  queryErrors: FormErrors;
  result: Availability | null;
  /** A refused purchase of the result's name. */
  purchase?: FormState;
}

function purchaseForm(result: Availability, view: SearchView): Html {
  const errors = view.purchase?.errors ?? NO_ERRORS;
  return html`<form method="post" action="/purchase" class="inline-form" novalidate>
${csrfInput(view.csrfToken)}
${errorSummary(errors, "The domain was not bought")}
<input type="hidden" name="domain_name" value="${result.domain_name}">
${select({ id: "purchase-years", name: "years", label: "Register for", value: view.purchase?.values.years ?? "1", choices: YEAR_CHOICES, error: errors.fields.years })}
<button type="submit" class="primary">Buy ${result.domain_name}</button>
</form>`;
}

function resultSection(result: Availability, view: SearchView): Html {
  const suggestions =
    result.suggestions.length > 0 &&
    html`<h3>${result.available ? "Other names" : "Available alternatives"}</h3>
<ul class="suggestions">${result.suggestions.map((name) => html`<li><a href="/search?q=${encodeURIComponent(name)}">${name}</a></li>`)}</ul>`;
  return html`<section class="card result" aria-labelledby="result-name">
<h2 id="result-name">${result.domain_name}</h2>
${
  result.available
    ? html`<p class="availability available">Available</p>
<p class="price">${money(result.price!, result.currency!)} per year${result.premium && html` <span class="badge">Premium name</span>`}</p>
${purchaseForm(result, view)}`
    : html`<p class="availability taken">Not available</p>${view.purchase && errorSummary(view.purchase.errors, "The domain was not bought")}`
}
${suggestions}
</section>`;
}

export function searchPage(view: SearchView): string {
  const form = html`<form method="get" action="/search" role="search" class="inline-form" novalidate>
${textInput({ id: "search-q", name: "q", type: "search", label: "Domain name", value: view.query, hint: "For example adalovelace.com", error: view.queryErrors.fields.q ?? view.queryErrors.fields.domain_name, spellcheck: false })}
<button type="submit">Search</button>
</form>`;
  return page(
    view.result ? `${view.result.domain_name}: find a domain` : "Find a domain",
    html`<h1>Find a domain</h1>${errorSummary(view.queryErrors)}${form}${view.result && resultSection(view.result, view)}`,
    view.chrome,
  );
}
