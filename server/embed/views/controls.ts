/** The embedded interface's form controls: the shared ones (server/web/controls.ts) in the reader's language, and its own. */
import {
  controlAttributes,
  type Choices,
  csrfInput,
  errorSummary as summaryOfErrors,
  type FieldOptions as WebFieldOptions,
  type FieldWording,
  fieldShell as shellOf,
  type FormErrors,
  select as selectOf,
} from "../../web/controls.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";

export { csrfInput } from "../../web/controls.js";

export interface FieldOptions extends WebFieldOptions {
  l: Localizer;
}

/** The field's box carries its name: the script finds fields by it (the DNS form's hint and priority). */
const wordingOf = (l: Localizer): FieldWording => ({ errorPrefix: l.t.controls.errorPrefix, markField: true });

export function textInput(
  options: FieldOptions & { type?: "text" | "search" | "email"; inputmode?: "numeric"; spellcheck?: boolean; autocomplete?: string },
): Html {
  return shellOf(
    options,
    html`<input type="${options.type ?? "text"}" id="${options.id}" name="${options.name}" value="${options.value ?? ""}"${options.inputmode && html` inputmode="${options.inputmode}"`} autocomplete="${options.autocomplete ?? "off"}"${options.spellcheck === false && html` spellcheck="false"`} autocapitalize="none"${controlAttributes(options)}>`,
    wordingOf(options.l),
  );
}

export const select = (options: FieldOptions & { choices: Choices }): Html => selectOf(options, wordingOf(options.l));

export const errorSummary = (l: Localizer, errors: FormErrors, title = l.t.controls.problemTitle): Html | null =>
  summaryOfErrors(errors, title);

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
