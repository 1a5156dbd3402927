/**
 * "Find a domain": a name's availability and price with priced suggestions, or a word on every
 * TLD of the catalogue; and the purchase's review, where the total is shown before anything is charged.
 */
import type { NameQuote } from "../../domain/catalog/availability.js";
import type { PurchaseQuote } from "../../domain/domains/purchase.js";
import { NO_ERRORS, type FormErrors } from "../../web/controls.js";
import type { FormState } from "./form-state.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { breakableName, errorSummary, reviewCard, select, textInput, yearChoices } from "./controls.js";
import { page, type Chrome } from "./layout.js";

export type SearchResult =
  /** A whole name: the name and its alternatives. */
  | { kind: "name"; name: NameQuote; suggestions: NameQuote[] }
  /** A word without a TLD: the word on every TLD. */
  | { kind: "word"; word: string; names: NameQuote[] };

export interface SearchView {
  chrome: Chrome;
  query: string;
  /** Why the query cannot be searched (not a name, a TLD not offered). */
  queryErrors: FormErrors;
  result: SearchResult | null;
  /** A refused review of the result's name (years out of range). */
  purchase?: FormState;
}

const CURRENCY = "USD";

const reviewHref = (name: string) => `/purchase?domain_name=${encodeURIComponent(name)}&years=1`;

function premiumBadge(l: Localizer, quote: NameQuote): Html | null {
  return quote.premium ? html` <span class="badge" title="${l.t.search.premiumHint}">${l.t.search.premium}</span>` : null;
}

/** A name in a list: availability, price per year, and a way to buy it. */
function nameRow(l: Localizer, quote: NameQuote): Html {
  const { t } = l;
  const state = quote.available
    ? html`<span class="availability available">${t.search.available}</span>`
    : html`<span class="availability taken">${quote.open ? t.search.taken : t.search.closedEnding}</span>`;
  return html`<li class="name-row">
<span class="name-row-name">${breakableName(quote.name)}${premiumBadge(l, quote)}</span>
${state}
<span class="name-row-price">${quote.yearlyPrice !== null && t.search.perYear(l.money(quote.yearlyPrice, CURRENCY))}</span>
<span class="name-row-action">${quote.available && html`<a class="button" href="${reviewHref(quote.name)}">${t.search.choose}<span class="visually-hidden"> ${quote.name}</span></a>`}</span>
</li>`;
}

function nameResult(l: Localizer, result: Extract<SearchResult, { kind: "name" }>, view: SearchView): Html {
  const { t } = l;
  const { name } = result;
  const errors = view.purchase?.errors ?? NO_ERRORS;
  const buy =
    name.available &&
    html`<p class="price">${t.search.perYear(l.money(name.yearlyPrice!, CURRENCY))}${premiumBadge(l, name)}</p>
${name.premium && html`<p class="hint">${t.search.premiumHint}</p>`}
<form method="get" action="/purchase" class="inline-form" novalidate>
${errorSummary(l, errors, t.purchase.notBought)}
<input type="hidden" name="domain_name" value="${name.name}">
${select({ l, id: "purchase-years", name: "years", label: t.search.registerFor, value: view.purchase?.values.years ?? "1", choices: yearChoices(l), error: errors.fields.years })}
<button type="submit" class="primary">${t.search.reviewShort}<span class="visually-hidden"> ${name.name}</span></button>
</form>`;
  const suggestions =
    result.suggestions.length > 0 &&
    html`<h3>${name.available ? t.search.otherNames : t.search.alternatives}</h3>
<ul class="name-list">${result.suggestions.map((suggestion) => nameRow(l, suggestion))}</ul>`;
  return html`<section class="card result" aria-labelledby="result-name">
<h2 id="result-name">${breakableName(name.name)}</h2>
${
  name.available
    ? html`<p class="availability available">${t.search.available}</p>${buy}`
    : html`<p class="availability taken">${t.search.taken}</p>${view.purchase && errorSummary(l, view.purchase.errors, t.purchase.notBought)}`
}
${suggestions}
</section>`;
}

function wordResult(l: Localizer, result: Extract<SearchResult, { kind: "word" }>): Html {
  const { t } = l;
  // Available names first, cheapest first; then the rest in the catalogue's order.
  const names = [...result.names].sort((a, b) => Number(b.available) - Number(a.available) || (a.yearlyPrice ?? 0) - (b.yearlyPrice ?? 0));
  return html`<section class="card result" aria-labelledby="result-word">
<h2 id="result-word">${t.search.everyEnding(result.word)}</h2>
<p class="hint">${t.search.endingsIntro}</p>
<ul class="name-list">${names.map((quote) => nameRow(l, quote))}</ul>
</section>`;
}

export function searchPage(view: SearchView): string {
  const { l } = view.chrome;
  const { t } = l;
  const form = html`<form method="get" action="/search" role="search" class="inline-form search-form" novalidate>
${textInput({ l, id: "search-q", name: "q", type: "search", label: t.search.label, value: view.query, hint: t.search.hint, error: view.queryErrors.fields.q ?? view.queryErrors.fields.domain_name, spellcheck: false })}
<button type="submit">${t.search.button}</button>
</form>`;
  const result = view.result && (view.result.kind === "name" ? nameResult(l, view.result, view) : wordResult(l, view.result));
  const title = view.result?.kind === "name" ? t.search.resultTitle(view.result.name.name) : t.search.title;
  return page(l, title, html`<h1>${t.search.title}</h1>${errorSummary(l, view.queryErrors)}${form}${result}`, view.chrome);
}

export interface PurchaseReview {
  chrome: Chrome;
  csrfToken: string;
  quote: PurchaseQuote;
  /** Where the registration would end if bought now. */
  until: Date;
  errors: FormErrors;
}

/** The purchase's review: name, period, price, total and end date; buying carries the total shown. */
export function purchaseReviewPage(view: PurchaseReview): string {
  const { l } = view.chrome;
  const { t } = l;
  const { quote } = view;
  const total = l.money(quote.total, quote.currency);
  const body = html`<p class="back"><a href="/search?q=${encodeURIComponent(quote.name)}">${t.purchase.change}</a></p>
<h1>${t.purchase.title}</h1>
${errorSummary(l, view.errors, t.purchase.notBought)}
${reviewCard({
  intro: t.purchase.intro,
  facts: [
    [t.purchase.domain, html`${breakableName(quote.name)}${quote.premium && html` <span class="badge">${t.search.premium}</span>`}`],
    [t.purchase.period, t.controls.years(quote.years)],
    [t.purchase.pricePerYear, l.money(quote.yearlyPrice, quote.currency)],
    [t.purchase.total, html`<strong class="total">${total}</strong>`],
    [t.purchase.registeredUntil, l.date(view.until)],
  ],
  notes: [quote.premium && t.purchase.premiumNote, t.purchase.autoRenewNote(l.money(quote.renewalPrice, quote.currency))],
  action: "/purchase",
  csrfToken: view.csrfToken,
  hidden: { domain_name: quote.name, years: String(quote.years), expected_total: String(quote.total) },
  confirm: t.purchase.confirm(total),
  cancel: { href: `/search?q=${encodeURIComponent(quote.name)}`, label: t.cancel },
})}`;
  return page(l, t.purchase.title, body, view.chrome);
}
