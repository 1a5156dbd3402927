/** Form controls with their label, hint and error wired for assistive technology. */
import { CSRF_FIELD } from "../../web/csrf.js";
import { Html, html } from "../../web/html.js";

/** Problems of a submitted form: by field name, and all of them for the summary. */
export interface FormErrors {
  fields: Record<string, string>;
  summary: string[];
}

export const NO_ERRORS: FormErrors = { fields: {}, summary: [] };

export function formErrors(fields: Record<string, string>, other: string[] = []): FormErrors {
  return { fields, summary: [...Object.values(fields), ...other] };
}

export interface FieldOptions {
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  required?: boolean;
}

const describedBy = (options: FieldOptions) => {
  const ids = [options.hint && `${options.id}-hint`, options.error && `${options.id}-error`].filter(Boolean);
  return ids.length > 0 ? html` aria-describedby="${ids.join(" ")}"` : null;
};

const shared = (options: FieldOptions) =>
  html`${describedBy(options)}${options.error && html` aria-invalid="true"`}${options.required && html` required`}`;

function fieldShell(options: FieldOptions, control: Html): Html {
  return html`<div class="field${options.error ? " field-error" : ""}">
<label for="${options.id}">${options.label}</label>
${options.hint && html`<p class="hint" id="${options.id}-hint">${options.hint}</p>`}
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">Error: </span>${options.error}</p>`}
${control}
</div>`;
}

export function input(
  options: FieldOptions & {
    type?: "text" | "email" | "password" | "url" | "number" | "search";
    autocomplete?: string;
    min?: number;
    max?: number;
  },
): Html {
  return fieldShell(
    options,
    html`<input type="${options.type ?? "text"}" id="${options.id}" name="${options.name}"${options.type !== "password" && html` value="${options.value ?? ""}"`} autocomplete="${options.autocomplete ?? "off"}"${options.min !== undefined && html` min="${options.min}"`}${options.max !== undefined && html` max="${options.max}"`} spellcheck="false" autocapitalize="none"${shared(options)}>`,
  );
}

/** A line break inside a textarea: escaping shows control characters as U+FFFD, and a break between lines is none. */
const LINE_BREAK = new Html("\n");

export function textarea(options: FieldOptions & { rows?: number }): Html {
  const lines = (options.value ?? "").split(/\r?\n/).flatMap((line, i) => (i === 0 ? [line] : [LINE_BREAK, line]));
  return fieldShell(
    options,
    html`<textarea id="${options.id}" name="${options.name}" rows="${options.rows ?? 4}" spellcheck="false" autocapitalize="none"${shared(options)}>${lines}</textarea>`,
  );
}

export function select(options: FieldOptions & { choices: ReadonlyArray<{ value: string; label: string }> }): Html {
  const choices = options.choices.map(
    ({ value, label }) => html`<option value="${value}"${value === options.value && html` selected`}>${label}</option>`,
  );
  return fieldShell(options, html`<select id="${options.id}" name="${options.name}"${shared(options)}>${choices}</select>`);
}

/** A group of checkboxes of one name, in a fieldset with its legend. */
export function checkboxes(options: {
  id: string;
  name: string;
  legend: string;
  hint?: string;
  error?: string;
  choices: ReadonlyArray<{ value: string; label: string }>;
  checked: ReadonlySet<string>;
}): Html {
  const boxes = options.choices.map(
    ({ value, label }, i) =>
      html`<div class="checkbox"><input type="checkbox" id="${options.id}-${i}" name="${options.name}" value="${value}"${options.checked.has(value) && html` checked`}><label for="${options.id}-${i}">${label}</label></div>`,
  );
  return html`<fieldset class="field${options.error ? " field-error" : ""}"${(options.hint || options.error) && html` aria-describedby="${[options.hint && `${options.id}-hint`, options.error && `${options.id}-error`].filter(Boolean).join(" ")}"`}>
<legend>${options.legend}</legend>
${options.hint && html`<p class="hint" id="${options.id}-hint">${options.hint}</p>`}
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">Error: </span>${options.error}</p>`}
<div class="checkbox-grid">${boxes}</div>
</fieldset>`;
}

export const csrfInput = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** A form of one button, for an action on one thing (revoke, redeliver...). */
export function actionButton(options: {
  action: string;
  label: string;
  csrfToken: string;
  style?: "primary" | "secondary" | "danger";
  confirm?: string;
  hidden?: Record<string, string>;
  /** What the button acts on, for screen readers when several alike buttons share a page. */
  describe?: string;
}): Html {
  return html`<form method="post" action="${options.action}" class="inline-form"${options.confirm && html` data-confirm="${options.confirm}"`}>${csrfInput(options.csrfToken)}${Object.entries(
    options.hidden ?? {},
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit" class="button button-${options.style ?? "secondary"}"${options.describe && html` aria-label="${options.label} ${options.describe}"`}>${options.label}</button></form>`;
}

/** The form's problems at its top; the script moves focus here, and role=alert announces it without it. */
export function errorSummary(errors: FormErrors, title = "There is a problem"): Html | null {
  if (errors.summary.length === 0) return null;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${title}</h2><ul>${errors.summary.map((message) => html`<li>${message}</li>`)}</ul></div>`;
}

/** A secret shown this once, with a copy button (the script) and the words to keep it. */
export function secretOnce(options: { id: string; label: string; value: string; hint: string }): Html {
  return html`<div class="secret-once" role="region" aria-labelledby="${options.id}-label">
<p class="secret-label" id="${options.id}-label"><strong>${options.label}</strong></p>
<p class="hint" id="${options.id}-hint">${options.hint}</p>
<div class="secret-row"><input type="text" id="${options.id}" value="${options.value}" readonly aria-labelledby="${options.id}-label" aria-describedby="${options.id}-hint" class="secret-value" spellcheck="false"><button type="button" class="button button-secondary" data-copy="${options.id}">Copy</button></div>
<p class="copy-status" role="status" aria-live="polite" data-copy-status="${options.id}"></p>
</div>`;
}
