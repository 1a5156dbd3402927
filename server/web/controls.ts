/**
 * Form controls of the HTML front doors, with their label, hint and error wired for assistive
 * technology. Each front door adds its own wording (the embedded interface speaks the reader's
 * language) and its own controls; the markup they share is made here once.
 */
import { CSRF_FIELD } from "./csrf.js";
import { type Html, html } from "./html.js";

/** Problems of a submitted form: message by field name, and every problem for the summary at its top. */
export interface FormErrors {
  /** Message by field name (the API's field names where the form mirrors an operation), in the page's language. */
  fields: Record<string, string>;
  summary: string[];
}

export const NO_ERRORS: FormErrors = { fields: {}, summary: [] };

export interface FieldOptions {
  /** Unique on the page: several forms may use the same field names. */
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  required?: boolean;
}

/** What a front door says around a field: the words read before an error, and whether the field is named for scripts. */
export interface FieldWording {
  /** Read by screen readers before the message, e.g. "Error:". */
  errorPrefix: string;
  /** Marks the field's box with `data-field` (its name), for a front door whose script finds fields by name. */
  markField?: boolean;
}

function describedBy(options: FieldOptions): string | undefined {
  const ids = [options.hint && `${options.id}-hint`, options.error && `${options.id}-error`].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** Attributes every control shares: its hint and error, whether it is invalid or required. */
export function controlAttributes(options: FieldOptions): Html {
  const ids = describedBy(options);
  return html`${ids && html` aria-describedby="${ids}"`}${options.error && html` aria-invalid="true"`}${options.required && html` required`}`;
}

/** The box of one control: its label, hint and error before it. */
export function fieldShell(options: FieldOptions, control: Html, wording: FieldWording): Html {
  return html`<div class="field${options.error ? " field-error" : ""}"${wording.markField && html` data-field="${options.name}"`}>
<label for="${options.id}">${options.label}</label>
${options.hint && html`<p class="hint" id="${options.id}-hint">${options.hint}</p>`}
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">${wording.errorPrefix} </span>${options.error}</p>`}
${control}
</div>`;
}

export type Choices = ReadonlyArray<{ value: string; label: string }>;

export function select(options: FieldOptions & { choices: Choices }, wording: FieldWording): Html {
  const choices = options.choices.map(
    ({ value, label }) => html`<option value="${value}"${value === options.value && html` selected`}>${label}</option>`,
  );
  return fieldShell(
    options,
    html`<select id="${options.id}" name="${options.name}"${controlAttributes(options)}>${choices}</select>`,
    wording,
  );
}

export const csrfInput = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** The form's problems at its top; scripts move focus here, and role=alert announces it without them. */
export function errorSummary(errors: FormErrors, title: string): Html | null {
  if (errors.summary.length === 0) return null;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${title}</h2><ul>${errors.summary.map((message) => html`<li>${message}</li>`)}</ul></div>`;
}
