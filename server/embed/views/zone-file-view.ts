/**
 * A domain's zone file on its page: the download, and the import form (a file or pasted text,
 * merge or replace); then the preview of what the import does, line by line, with the button that
 * applies exactly the file previewed, or the lines that keep it from being imported.
 */
import type { ZoneImportLine, ZoneImportMode, ZoneImportOutcome } from "../../domain/zone-files/zone-transfer.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { fieldShell, NO_ERRORS, type FormErrors } from "../../web/controls.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { carriedValueOf, ZONE_FIELDS, ZONE_FILE_MAX_BYTES } from "./zone-file-form.js";
import { breakableName, csrfInput, errorSummary } from "./controls.js";
import type { FormState } from "./form-state.js";
import { page, type Chrome } from "./layout.js";

/** The size limit as the form states it, in the reader's numbers. */
export const sizeLimitText = (l: Localizer) => `${l.number(ZONE_FILE_MAX_BYTES / 1024)} KB`;

const shell = (l: Localizer) => ({ errorPrefix: l.t.controls.errorPrefix, markField: true });

function modeChoice(l: Localizer, mode: ZoneImportMode, checked: boolean, partnerName: string): Html {
  const { zoneFiles } = l.t;
  const id = `zone-mode-${mode}`;
  const warning =
    mode === "replace" ? html`<p class="hint warning-note warning" id="${id}-hint">${zoneFiles.replaceWarning(partnerName)}</p>` : null;
  return html`<div class="choice"><input type="radio" id="${id}" name="${ZONE_FIELDS.mode}" value="${mode}"${checked && html` checked`}${warning && html` aria-describedby="${id}-hint"`}><label for="${id}">${zoneFiles[mode]}</label>
${warning}</div>`;
}

/** The zone file section of the domain's page: download, and the import form (open with its errors when it was refused). */
export function zoneFileSection(options: {
  l: Localizer;
  domain: DomainRow;
  csrfToken: string;
  partnerName: string;
  state?: FormState;
}): Html {
  const { l, domain, state } = options;
  const { zoneFiles } = l.t;
  const errors = state?.errors ?? NO_ERRORS;
  const mode = state?.values.mode === "replace" ? "replace" : "merge";
  const fileField = fieldShell(
    {
      id: "zone-upload",
      name: ZONE_FIELDS.file,
      label: zoneFiles.file,
      hint: zoneFiles.fileHint(sizeLimitText(l)),
      error: errors.fields[ZONE_FIELDS.file],
    },
    html`<input type="file" id="zone-upload" name="${ZONE_FIELDS.file}" accept=".zone,.txt,.db,text/dns,text/plain" aria-describedby="zone-upload-hint${errors.fields[ZONE_FIELDS.file] ? " zone-upload-error" : ""}"${errors.fields[ZONE_FIELDS.file] && html` aria-invalid="true"`}>`,
    shell(l),
  );
  const textField = fieldShell(
    { id: "zone-text", name: ZONE_FIELDS.text, label: zoneFiles.text, hint: zoneFiles.textHint },
    html`<textarea id="zone-text" name="${ZONE_FIELDS.text}" rows="8" spellcheck="false" autocapitalize="none" autocomplete="off" aria-describedby="zone-text-hint" class="zone-text">${state?.values.zone_text ?? ""}</textarea>`,
    shell(l),
  );
  return html`<section aria-labelledby="zone-file-title" class="card" id="zone-file">
<h2 id="zone-file-title">${zoneFiles.title}</h2>
<p>${zoneFiles.intro}</p>
<p><a href="/domains/${domain.id}/zone" download class="button">${zoneFiles.download}</a></p>
<details class="zone-import"${state && html` open`}>
<summary>${zoneFiles.importTitle}</summary>
<form method="post" action="/domains/${domain.id}/zone/preview" enctype="multipart/form-data" novalidate>
${csrfInput(options.csrfToken)}
${errorSummary(l, errors, zoneFiles.notPreviewed)}
${fileField}
${textField}
<fieldset class="choices">
<legend>${zoneFiles.mode}</legend>
${modeChoice(l, "merge", mode === "merge", options.partnerName)}
${modeChoice(l, "replace", mode === "replace", options.partnerName)}
</fieldset>
<button type="submit">${zoneFiles.preview}</button>
</form>
</details>
</section>`;
}

export interface ZonePreviewView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  mode: ZoneImportMode;
  /** The file's text and the seal the apply form carries (zone-preview-seal.ts). */
  text: string;
  seal: string;
  outcome: ZoneImportOutcome;
  /** Each line's note (why it is skipped or refused), in the order of the outcome's lines. */
  notes: ReadonlyArray<string | null>;
  /** Set when an apply was refused because the records changed since the preview this one replaces. */
  changedMeanwhile?: boolean;
}

const ACTION_ORDER: ReadonlyArray<ZoneImportLine["action"]> = ["create", "update", "delete", "unchanged", "skip", "refuse"];

function lineRow(l: Localizer, line: ZoneImportLine, note: string | null): Html {
  const { columns, actions, notInFile } = l.t.zoneFiles;
  return html`<tr class="zone-line zone-${line.action}">
<td data-label="${columns.line}">${line.line > 0 ? l.number(line.line) : html`<span class="hint">${notInFile}</span>`}</td>
<td data-label="${columns.action}"><span class="zone-action">${actions[line.action]}</span></td>
<td data-label="${columns.type}"><span class="record-type">${line.type}</span></td>
<td data-label="${columns.name}"><code>${line.name}</code></td>
<td data-label="${columns.content}">${line.content !== null && html`<code class="record-content">${line.content}</code>`}</td>
<td data-label="${columns.reason}">${note}</td>
</tr>`;
}

/** The refused lines as the error summary lists them: line and reason, so the user can find them in the file. */
function refusals(l: Localizer, view: ZonePreviewView): FormErrors {
  const summary = view.outcome.lines.flatMap((line, index) =>
    line.action === "refuse" ? [l.t.zoneFiles.refusedLine(line.line, view.notes[index] ?? l.t.zoneFiles.problems.unknown)] : [],
  );
  return { fields: {}, summary };
}

export function zonePreviewPage(view: ZonePreviewView): string {
  const { domain, outcome } = view;
  const { l } = view.chrome;
  const { zoneFiles } = l.t;
  const refused = refusals(l, view);
  const changes = outcome.counts.create + outcome.counts.update + outcome.counts.delete;
  const counts = ACTION_ORDER.filter((action) => outcome.counts[action] > 0)
    .map((action) => `${zoneFiles.actions[action]}: ${l.number(outcome.counts[action])}`)
    .join(", ");
  const summary =
    refused.summary.length > 0
      ? html`<div class="error-summary" role="alert" tabindex="-1"><h2>${zoneFiles.refusedTitle}</h2>
${view.changedMeanwhile && html`<p>${zoneFiles.changedSincePreview}</p>`}
<p>${zoneFiles.refusedIntro}</p>
<ul>${refused.summary.map((message) => html`<li>${message}</li>`)}</ul></div>`
      : view.changedMeanwhile && errorSummary(l, { fields: {}, summary: [zoneFiles.changedSincePreview] }, zoneFiles.refusedTitle);
  const actions =
    refused.summary.length === 0 && changes > 0
      ? html`<form method="post" action="/domains/${domain.id}/zone/apply" enctype="multipart/form-data" class="actions">
${csrfInput(view.csrfToken)}
<input type="hidden" name="${ZONE_FIELDS.mode}" value="${view.mode}">
<input type="hidden" name="${ZONE_FIELDS.digest}" value="${view.seal}">
<input type="hidden" name="${ZONE_FIELDS.carried}" value="${carriedValueOf(view.text)}">
<button type="submit" class="${view.mode === "replace" && outcome.counts.delete > 0 ? "danger" : "primary"}">${zoneFiles.apply(changes)}</button>
<a href="/domains/${domain.id}#zone-file">${l.t.cancel}</a>
</form>`
      : html`${changes === 0 && refused.summary.length === 0 && html`<p>${zoneFiles.applyNothing}</p>`}
<p class="actions"><a href="/domains/${domain.id}#zone-file">${zoneFiles.again}</a></p>`;
  const body = html`<p class="back"><a href="/domains/${domain.id}#zone-file">${breakableName(domain.name)}</a></p>
<h1>${zoneFiles.previewTitle(domain.name)}</h1>
${summary}
<section class="card review" aria-labelledby="zone-preview-intro">
<p id="zone-preview-intro">${zoneFiles.previewIntro}</p>
<p>${zoneFiles.modeIs[view.mode]}${view.mode === "replace" && html` <strong>${zoneFiles.replaceWarning(view.chrome.branding.partnerName)}</strong>`}</p>
<p>${zoneFiles.counts(counts)}</p>
<table class="records zone-preview">
<caption class="visually-hidden">${zoneFiles.caption(domain.name)}</caption>
<thead><tr>${(["line", "action", "type", "name", "content", "reason"] as const).map((column) => html`<th scope="col">${zoneFiles.columns[column]}</th>`)}</tr></thead>
<tbody>${outcome.lines.map((line, index) => lineRow(l, line, view.notes[index] ?? null))}</tbody>
</table>
${actions}
</section>`;
  return page(l, zoneFiles.previewTitle(domain.name), body, view.chrome);
}
