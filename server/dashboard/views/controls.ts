/** The dashboard's form controls: the shared ones (server/web/controls.ts) in its words, and its own. */
import {
  controlAttributes,
  type Choices,
  csrfInput,
  errorSummary as summaryOfErrors,
  type FieldOptions,
  type FieldWording,
  fieldShell as shellOf,
  type FormErrors,
  select as selectOf,
} from "../../web/controls.js";
import { Html, html } from "../../web/html.js";

export { csrfInput, type FieldOptions, type FormErrors, NO_ERRORS } from "../../web/controls.js";

const WORDING: FieldWording = { errorPrefix: "Error:" };

export function formErrors(fields: Record<string, string>, other: string[] = []): FormErrors {
  return { fields, summary: [...Object.values(fields), ...other] };
}

const fieldShell = (options: FieldOptions, control: Html) => shellOf(options, control, WORDING);

export function input(
  options: FieldOptions & {
    type?: "text" | "email" | "password" | "url" | "number" | "search" | "date" | "time";
    autocomplete?: string;
    min?: number;
    max?: number;
  },
): Html {
  return fieldShell(
    options,
    html`<input type="${options.type ?? "text"}" id="${options.id}" name="${options.name}"${options.type !== "password" && html` value="${options.value ?? ""}"`} autocomplete="${options.autocomplete ?? "off"}"${options.min !== undefined && html` min="${options.min}"`}${options.max !== undefined && html` max="${options.max}"`} spellcheck="false" autocapitalize="none"${controlAttributes(options)}>`,
  );
}

/** A line break inside a textarea: escaping shows control characters as U+FFFD, and a break between lines is none. */
const LINE_BREAK = new Html("\n");

export function textarea(options: FieldOptions & { rows?: number }): Html {
  const lines = (options.value ?? "").split(/\r?\n/).flatMap((line, i) => (i === 0 ? [line] : [LINE_BREAK, line]));
  return fieldShell(
    options,
    html`<textarea id="${options.id}" name="${options.name}" rows="${options.rows ?? 4}" spellcheck="false" autocapitalize="none"${controlAttributes(options)}>${lines}</textarea>`,
  );
}

export const select = (options: FieldOptions & { choices: Choices }): Html => selectOf(options, WORDING);

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

export const errorSummary = (errors: FormErrors, title = "There is a problem"): Html | null => summaryOfErrors(errors, title);

/**
 * The summary of a long form: each field's problem a link to the field (its id by field name), so a
 * keyboard or screen-reader user reaches it from the top; problems of no field are listed as text.
 */
export function linkedErrorSummary(
  errors: FormErrors,
  fieldIds: Readonly<Record<string, string>>,
  title = "There is a problem",
): Html | null {
  if (errors.summary.length === 0) return null;
  const linked = Object.entries(errors.fields).map(([name, message]) =>
    fieldIds[name] ? html`<li><a href="#${fieldIds[name]}">${message}</a></li>` : html`<li>${message}</li>`,
  );
  const fieldMessages = new Set(Object.values(errors.fields));
  const others = errors.summary.filter((message) => !fieldMessages.has(message)).map((message) => html`<li>${message}</li>`);
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${title}</h2><ul>${linked}${others}</ul></div>`;
}

/** A group of radio buttons of one name, in a fieldset with its legend; each choice may carry a hint of its own. */
export function radios(options: {
  id: string;
  name: string;
  legend: string;
  error?: string;
  choices: ReadonlyArray<{ value: string; label: string; hint?: string }>;
  value: string;
}): Html {
  const buttons = options.choices.map(
    ({ value, label, hint }, i) =>
      html`<div class="radio"><input type="radio" id="${options.id}-${i}" name="${options.name}" value="${value}"${value === options.value && html` checked`}${hint && html` aria-describedby="${options.id}-${i}-hint"`}><label for="${options.id}-${i}">${label}</label>${hint && html`<p class="hint" id="${options.id}-${i}-hint">${hint}</p>`}</div>`,
  );
  return html`<fieldset class="field${options.error ? " field-error" : ""}" id="${options.id}"${options.error && html` aria-describedby="${options.id}-error"`}>
<legend>${options.legend}</legend>
${options.error && html`<p class="error-message" id="${options.id}-error"><span class="visually-hidden">Error: </span>${options.error}</p>`}
${buttons}
</fieldset>`;
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
