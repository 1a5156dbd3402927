/** Form controls with their label, hint and error wired for assistive technology. */
import { CSRF_FIELD } from "../../web/csrf.js";
import type { FormErrors } from "../forms.js";
import { html, type Html } from "../../web/html.js";

export interface FieldOptions {
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
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">Error: </span>${options.error}</p>`}
${control}
</div>`;
}

/** Attributes every control shares: its hint and error, whether it is invalid or required. */
const sharedAttributes = (options: FieldOptions) =>
  html`${describedBy(options) && html` aria-describedby="${describedBy(options)!}"`}${options.error && html` aria-invalid="true"`}${options.required && html` required`}`;

export function textInput(options: FieldOptions & { type?: "text" | "search"; inputmode?: "numeric"; spellcheck?: boolean }): Html {
  return fieldShell(
    options,
    html`<input type="${options.type ?? "text"}" id="${options.id}" name="${options.name}" value="${options.value ?? ""}"${options.inputmode && html` inputmode="${options.inputmode}"`} autocomplete="off"${options.spellcheck === false && html` spellcheck="false"`} autocapitalize="none"${sharedAttributes(options)}>`,
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
export function errorSummary(errors: FormErrors, title = "There is a problem"): Html | null {
  if (errors.summary.length === 0) return null;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${title}</h2><ul>${errors.summary.map((message) => html`<li>${message}</li>`)}</ul></div>`;
}

/** Whole years 1 to 10, the registration periods registries allow. */
export const YEAR_CHOICES = Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: i === 0 ? "1 year" : `${i + 1} years` }));
