/** Form controls with their label, hint and error wired for assistive technology. */
import { CSRF_FIELD } from "../../web/csrf.js";
import type { FormErrors } from "../forms.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";

export interface FieldOptions {
  l: Localizer;
  /** Unique on the page: several forms use the same field names. */
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  required?: boolean;
}

function describedBy(options: FieldOptions): string | undefined {
  const ids = [options.hint && `${options.id}-hint`, options.error && `${options.id}-error`].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

function fieldShell(options: FieldOptions, control: Html): Html {
  return html`<div class="field${options.error ? " field-error" : ""}" data-field="${options.name}">
<label for="${options.id}">${options.label}</label>
${options.hint && html`<p class="hint" id="${options.id}-hint">${options.hint}</p>`}
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">${options.l.t.controls.errorPrefix} </span>${options.error}</p>`}
${control}
</div>`;
}

/** Attributes every control shares: its hint and error, whether it is invalid or required. */
const sharedAttributes = (options: FieldOptions) =>
  html`${describedBy(options) && html` aria-describedby="${describedBy(options)!}"`}${options.error && html` aria-invalid="true"`}${options.required && html` required`}`;

export function textInput(
  options: FieldOptions & { type?: "text" | "search" | "email"; inputmode?: "numeric"; spellcheck?: boolean; autocomplete?: string },
): Html {
  return fieldShell(
    options,
    html`<input type="${options.type ?? "text"}" id="${options.id}" name="${options.name}" value="${options.value ?? ""}"${options.inputmode && html` inputmode="${options.inputmode}"`} autocomplete="${options.autocomplete ?? "off"}"${options.spellcheck === false && html` spellcheck="false"`} autocapitalize="none"${sharedAttributes(options)}>`,
  );
}

export function select(options: FieldOptions & { choices: ReadonlyArray<{ value: string; label: string }> }): Html {
  const choices = options.choices.map(
    ({ value, label }) => html`<option value="${value}"${value === options.value && html` selected`}>${label}</option>`,
  );
  return fieldShell(options, html`<select id="${options.id}" name="${options.name}"${sharedAttributes(options)}>${choices}</select>`);
}

export const csrfInput = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** The form's problems at its top; scripts move focus here, and role=alert announces it without them. */
export function errorSummary(l: Localizer, errors: FormErrors, title = l.t.controls.problemTitle): Html | null {
  if (errors.summary.length === 0) return null;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${title}</h2><ul>${errors.summary.map((message) => html`<li>${message}</li>`)}</ul></div>`;
}

/** Whole years from 1 to `most` (registries allow 10), as the choices of a period. */
export const yearChoices = (l: Localizer, most = 10) =>
  Array.from({ length: most }, (_, i) => ({ value: String(i + 1), label: l.t.controls.years(i + 1) }));

/** A name as a line may break it: after each dot and hyphen, so a long name wraps at its parts at 375 pixels. */
export const breakableName = (name: string): Html =>
  html`<span class="domain-name">${name.split(/(?<=[.-])/).map((part, i) => html`${i > 0 && html`<wbr>`}${part}`)}</span>`;

/** A summary of facts (review pages, the domain page): term and value in pairs. */
export const facts = (pairs: ReadonlyArray<readonly [string, Html | string]>) =>
  html`<dl class="facts">${pairs.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}</dl>`;

/** The card of a review: what is about to happen as facts, notes, and the form that confirms it with the values shown. */
export function reviewCard(options: {
  intro: string;
  facts: ReadonlyArray<readonly [string, Html | string]>;
  notes?: ReadonlyArray<Html | string | null | false>;
  action: string;
  csrfToken: string;
  hidden: Record<string, string>;
  confirm: string;
  cancel: { href: string; label: string };
}): Html {
  return html`<section class="card review" aria-labelledby="review-title">
<p id="review-title">${options.intro}</p>
${facts(options.facts)}
${(options.notes ?? []).map((note) => note && html`<p class="hint">${note}</p>`)}
<form method="post" action="${options.action}" class="actions">
${csrfInput(options.csrfToken)}
${Object.entries(options.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" class="primary">${options.confirm}</button>
<a href="${options.cancel.href}">${options.cancel.label}</a>
</form>
</section>`;
}
