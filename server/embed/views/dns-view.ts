/**
 * A domain's page: its facts and DNS records as a sortable table; adding, editing and deleting a
 * record (deleting asks first, on a page of its own); applying a template after a review of the
 * exact records it adds.
 */
import { entityTag } from "../../platform/entity-tags.js";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import type { RecordDraft } from "../../domain/dns/record-rules.js";
import type { DnsRecordRow } from "../../domain/dns/record-store.js";
import { isServiceNameservers } from "../../domain/domains/delegation.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { NO_ERRORS, type FormErrors } from "../../web/controls.js";
import type { FormState } from "./form-state.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { breakableName, csrfInput, errorSummary, facts, select, textInput } from "./controls.js";
import { statusBadge } from "./domains-view.js";
import { notice, page, type Chrome } from "./layout.js";
import { SORT_COLUMNS, type RecordSort, type SortColumn } from "./record-order.js";
import { commentField, lockMark, recordComment } from "./record-notes-view.js";
import { zoneFileSection } from "./zone-file-view.js";

export const RECORD_TYPES = [
  "A",
  "AAAA",
  "ALIAS",
  "CAA",
  "CNAME",
  "HTTPS",
  "MX",
  "NS",
  "SRV",
  "SVCB",
  "TLSA",
  "TXT",
] as const satisfies ReadonlyArray<DnsRecordRow["type"]>;

export interface DnsView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  /** In the order of `sort`. */
  records: DnsRecordRow[];
  sort: RecordSort;
  notice: Html | string | null;
  /** What the add form starts with: the TTL the API gives a record created without one. */
  defaultTtl: number;
  /** The add form as it was sent, when it was refused. */
  addRecord?: FormState;
  /** A template form as it was sent, when it was refused. */
  template?: { id: DnsTemplateId; state: FormState };
  /** Whether the domain is set up for the partner, with its fix (connection-view.ts); null without requirements. */
  connection?: Html | null;
  /** The zone file import form as it was sent, when it was refused before its preview. */
  zoneImport?: FormState;
}

export const recordFormFields = ["type", "name", "content", "ttl", "priority", "comment"] as const;

/**
 * The fields of a record form. Adding, the type is chosen and the script shows the fields and hints
 * of the type chosen; editing, the type is fixed (as in the API's update) and only its fields are there.
 */
function recordFields(
  l: Localizer,
  prefix: string,
  state: FormState | undefined,
  /** The record's type when editing (null: adding), the domain, and the TTL the API gives a record created without one. */
  fixed: { type: DnsRecordRow["type"] | null; domain: string; defaultTtl: number },
): Html {
  const { t } = l;
  const values = state?.values ?? {};
  const errors = state?.errors ?? NO_ERRORS;
  const chosen = (fixed.type ?? (RECORD_TYPES.includes(values.type as never) ? values.type : "A")) as DnsRecordRow["type"];
  const typeField =
    fixed.type === null
      ? select({
          l,
          id: `${prefix}-type`,
          name: "type",
          label: t.dns.type,
          value: chosen,
          choices: RECORD_TYPES.map((type) => ({ value: type, label: `${type}: ${t.dns.typeLabels[type]}` })),
          error: errors.fields.type,
        })
      : html`<p class="fixed-field">${t.edit.type} <strong>${fixed.type}</strong></p>`;
  const showPriority = fixed.type === null || fixed.type === "MX";
  return html`${typeField}
${textInput({ l, id: `${prefix}-name`, name: "name", label: t.dns.name, value: values.name ?? "@", hint: t.dns.nameHint(fixed.domain), error: errors.fields.name, spellcheck: false })}
${textInput({ l, id: `${prefix}-content`, name: "content", label: fixed.type === null ? t.dns.value : t.dns.typeLabels[fixed.type], value: values.content ?? "", hint: t.dns.typeHints[chosen], error: errors.fields.content, spellcheck: false })}
${textInput({ l, id: `${prefix}-ttl`, name: "ttl", label: t.dns.ttl, value: values.ttl ?? String(fixed.defaultTtl), hint: t.dns.ttlHint(t.dns.ttlWords(fixed.defaultTtl)), inputmode: "numeric", error: errors.fields.ttl })}
${showPriority && textInput({ l, id: `${prefix}-priority`, name: "priority", label: t.dns.priorityLabel, value: values.priority ?? "", hint: t.dns.priorityHint, inputmode: "numeric", error: errors.fields.priority })}
${commentField(l, prefix, values.comment ?? "", errors.fields.comment)}`;
}

/** A record's value as the table shows it: MX's priority beside its server, its comment below. */
function recordValue(l: Localizer, record: DnsRecordRow): Html {
  return html`<code class="record-content">${record.content}</code>${record.type === "MX" && record.priority !== null && html` <span class="record-meta">(${l.t.dns.priority(record.priority)})</span>`}${recordComment(l, record)}`;
}

function sortHeader(l: Localizer, domain: DomainRow, sort: RecordSort, column: SortColumn): Html {
  const label = l.t.dns.columns[column];
  const active = sort.column === column;
  const next = active && sort.order === "asc" ? "desc" : "asc";
  const state = active ? (sort.order === "asc" ? l.t.dns.sortedAscending : l.t.dns.sortedDescending) : null;
  return html`<th scope="col"${active && html` aria-sort="${sort.order === "asc" ? "ascending" : "descending"}"`}><a href="/domains/${domain.id}?sort=${column}&amp;order=${next}#records-title" class="sort-link">${label}<span class="sort-mark" aria-hidden="true">${active ? (sort.order === "asc" ? " ▲" : " ▼") : ""}</span>${state && html`<span class="visually-hidden">, ${state}</span>`}</a></th>`;
}

function recordRow(l: Localizer, domain: DomainRow, record: DnsRecordRow, partner: string): Html {
  const { t } = l;
  const described = t.dns.recordLabel(record.type, record.name);
  const columns = t.dns.columns;
  return html`<tr id="record-${record.id}"${record.locked && html` class="locked-record"`}>
<td data-label="${columns.type}"><span class="record-type">${record.type}</span>${record.locked && html` ${lockMark(l, partner)}`}</td>
<td data-label="${columns.name}"><code class="record-name">${record.name}</code></td>
<td data-label="${columns.content}">${recordValue(l, record)}</td>
<td data-label="${columns.ttl}"><span title="${t.dns.ttlWords(record.ttl)}">${l.number(record.ttl)}</span></td>
${
  record.locked
    ? html`<td class="record-actions"><span class="hint">${t.recordNotes.managedBy(partner)}</span></td>`
    : html`<td class="record-actions"><a href="/domains/${domain.id}/dns/${record.id}/edit">${t.dns.edit}<span class="visually-hidden"> ${described}</span></a>
<a href="/domains/${domain.id}/dns/${record.id}/delete" class="danger-link">${t.dns.delete}<span class="visually-hidden"> ${described}</span></a></td>`
}
</tr>`;
}

function recordsTable(view: DnsView): Html {
  const { l } = view.chrome;
  const { t } = l;
  if (view.records.length === 0) return html`<p>${t.dns.none}</p>`;
  return html`<table class="records">
<caption class="visually-hidden">${t.dns.recordsCaption(view.domain.name)}</caption>
<thead><tr>${SORT_COLUMNS.map((column) => sortHeader(l, view.domain, view.sort, column))}<th scope="col"><span class="visually-hidden">${t.dns.columns.actions}</span></th></tr></thead>
<tbody>${view.records.map((record) => recordRow(l, view.domain, record, view.chrome.branding.partnerName))}</tbody>
</table>`;
}

type VariableSpec = { type: string; required: boolean; default?: string; enum?: readonly string[] };

const variablesOf = (id: DnsTemplateId) => Object.entries(dnsTemplates[id].variables as Record<string, VariableSpec>);

/** A template's records with the values given so far; a value not given yet reads as a placeholder in words. */
function templatePreview(l: Localizer, id: DnsTemplateId, domain: string, values: Record<string, string>): Html {
  const { templates } = l.t;
  const specs = Object.fromEntries(variablesOf(id));
  const fill = (text: string) =>
    text.replace(/%([a-z_]+)%/g, (_match, name: string) => {
      if (name === "domain") return domain;
      const value = values[`variables.${name}`] || specs[name]?.default;
      return value ?? templates.placeholder(templates.variables[name]?.label ?? name);
    });
  // The script fills the same placeholders as the user types (data-template), with these words for empty fields.
  return html`<ul class="template-records" data-domain="${domain}">${dnsTemplates[id].records.map(
    (record) =>
      html`<li><code><span class="record-type">${record.type}</span> <span data-template="${record.name}">${fill(record.name)}</span> <span data-template="${record.content}">${fill(record.content)}</span></code></li>`,
  )}</ul>`;
}

function templateForm(view: DnsView, id: DnsTemplateId): Html {
  const { l } = view.chrome;
  const { t } = l;
  const failed = view.template?.id === id ? view.template.state : undefined;
  const errors = failed?.errors ?? NO_ERRORS;
  const values = failed?.values ?? {};
  const title = t.templates.titles[id];
  const inputs = variablesOf(id).map(([name, spec]) => {
    const field = `variables.${name}`;
    const words = t.templates.variables[name] ?? { label: name, hint: "" };
    const common = {
      l,
      id: `template-${id}-${name}`,
      name: field,
      label: words.label,
      hint: words.hint || undefined,
      error: errors.fields[field],
    };
    return spec.enum
      ? select({
          ...common,
          value: values[field] || spec.default || spec.enum[0],
          choices: spec.enum.map((value) => ({ value, label: t.templates.policyChoices[value] ?? value })),
        })
      : textInput({
          ...common,
          value: values[field] ?? "",
          required: spec.required,
          spellcheck: false,
          ...(spec.type === "email" ? { type: "email" as const } : {}),
        });
  });
  // What an empty field stands for in the preview: its default, else its label as a placeholder.
  const placeholders = Object.fromEntries(
    variablesOf(id).map(([name, spec]) => [name, spec.default ?? t.templates.placeholder(t.templates.variables[name]?.label ?? name)]),
  );
  return html`<details class="template" id="template-${id}"${failed && html` open`}>
<summary>${title}</summary>
<p>${t.templates.addsThese}</p>
${templatePreview(l, id, view.domain.name, values)}
<form method="get" action="/domains/${view.domain.id}/templates/${id}" class="template-form" data-placeholders="${JSON.stringify(placeholders)}" novalidate>
${errorSummary(l, errors, t.templates.notApplied)}
${inputs}
<button type="submit">${t.templates.review(title)}</button>
</form>
</details>`;
}

export function dnsPage(view: DnsView): string {
  const { domain } = view;
  const { l } = view.chrome;
  const { t } = l;
  const body = html`<p class="back"><a href="/domains">${t.dns.back}</a></p>
<h1>${breakableName(domain.name)}</h1>
${notice(view.notice)}
${facts([
  [t.dns.status, statusBadge(l, domain.status)],
  [t.dns.expires, l.date(domain.expiresAt)],
  [t.dns.autoRenew, domain.autoRenew ? t.on : t.off],
  [t.dns.whoisPrivacy, domain.whoisPrivacy ? t.on : t.off],
  [t.dns.nameServers, html`${domain.nameservers.join(", ")} <a href="/domains/${domain.id}/nameservers">${t.delegation.link}</a>`],
])}
${view.connection ?? ""}
<section aria-labelledby="records-title">
<h2 id="records-title">${t.dns.records}</h2>
${!isServiceNameservers(domain.nameservers) && html`<p class="warning records-not-served">${t.delegation.recordsNotServed} <a href="/domains/${domain.id}/nameservers">${t.delegation.link}</a></p>`}
${recordsTable(view)}
</section>
<section aria-labelledby="add-title" class="card">
<h2 id="add-title">${t.dns.add}</h2>
<form method="post" action="/domains/${domain.id}/dns" class="record-form" data-type-hints="${JSON.stringify(t.dns.typeHints)}" novalidate>
${csrfInput(view.csrfToken)}
${errorSummary(l, view.addRecord?.errors ?? NO_ERRORS, t.dns.notAdded)}
${recordFields(l, "add", view.addRecord, { type: null, domain: domain.name, defaultTtl: view.defaultTtl })}
<button type="submit" class="primary">${t.dns.addButton}</button>
</form>
</section>
<section aria-labelledby="templates-title">
<h2 id="templates-title">${t.templates.title}</h2>
<p>${t.templates.intro}</p>
${(Object.keys(dnsTemplates) as DnsTemplateId[]).map((id) => templateForm(view, id))}
</section>
${zoneFileSection({ l, domain, csrfToken: view.csrfToken, partnerName: view.chrome.branding.partnerName, ...(view.zoneImport ? { state: view.zoneImport } : {}) })}`;
  return page(l, domain.name, body, view.chrome);
}

export interface RecordEditView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  /** The record as stored now: the form saves over this state only (its entity tag goes with the form). */
  record: DnsRecordRow;
  state: FormState;
  defaultTtl: number;
  /** Set when someone else changed the record while the user edited it: their input stays in the form, the current values are shown. */
  changedMeanwhile?: boolean;
}

/** What a user is told when the record they edit was changed by someone else since they opened the form. */
function changedMeanwhileWarning(l: Localizer, record: DnsRecordRow): Html {
  const { edit } = l.t;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>${edit.changedTitle}</h2>
<p>${edit.changedNothingSaved}</p>
<ul><li>${edit.changedName} <code>${record.name}</code></li><li>${edit.changedValue} <code>${record.content}</code></li><li>${edit.changedTtl} ${l.number(record.ttl)}${record.priority !== null && html` · ${l.t.dns.priority(record.priority)}`}</li></ul>
<p>${edit.changedKeep}</p></div>`;
}

export function recordEditPage(view: RecordEditView): string {
  const { domain, record } = view;
  const { l } = view.chrome;
  const { t } = l;
  const body = html`<p class="back"><a href="/domains/${domain.id}">${breakableName(domain.name)}</a></p>
<h1>${t.edit.title(record.type, record.name)}</h1>
<form method="post" action="/domains/${domain.id}/dns/${record.id}" class="record-form card" novalidate>
${csrfInput(view.csrfToken)}
<input type="hidden" name="etag" value="${entityTag(record)}">
${view.changedMeanwhile ? changedMeanwhileWarning(l, record) : errorSummary(l, view.state.errors, t.edit.notSaved)}
${recordFields(l, "edit", view.state, { type: record.type, domain: domain.name, defaultTtl: view.defaultTtl })}
<div class="actions"><button type="submit" class="primary">${t.edit.save}</button>
<a href="/domains/${domain.id}">${t.cancel}</a></div>
</form>`;
  return page(l, t.edit.pageTitle(record.type, domain.name), body, view.chrome);
}

/** The record, as a review page lists it. */
const recordFacts = (l: Localizer, record: RecordDraft | DnsRecordRow) =>
  facts([
    [l.t.dns.columns.type, record.type],
    [l.t.dns.columns.name, html`<code>${record.name}</code>`],
    [l.t.dns.columns.content, html`<code class="record-content">${record.content}</code>`],
    [l.t.dns.columns.ttl, `${l.number(record.ttl)} (${l.t.dns.ttlWords(record.ttl)})`],
    ...(record.type === "MX" && record.priority !== null ? [[l.t.dns.priorityLabel, l.number(record.priority)] as const] : []),
  ]);

/** Before a record is deleted: the record, and a confirmation carrying its version. */
export function recordDeletePage(view: { chrome: Chrome; csrfToken: string; domain: DomainRow; record: DnsRecordRow }): string {
  const { domain, record } = view;
  const { l } = view.chrome;
  const { t } = l;
  const body = html`<p class="back"><a href="/domains/${domain.id}">${breakableName(domain.name)}</a></p>
<h1>${t.deletion.title(record.type, record.name)}</h1>
<section class="card warning" aria-labelledby="delete-intro">
<p id="delete-intro">${t.deletion.intro}</p>
${recordFacts(l, record)}
<form method="post" action="/domains/${domain.id}/dns/${record.id}/delete" class="actions">
${csrfInput(view.csrfToken)}
<input type="hidden" name="etag" value="${entityTag(record)}">
<button type="submit" class="danger">${t.deletion.confirm}</button>
<a href="/domains/${domain.id}">${t.cancel}</a>
</form>
</section>`;
  return page(l, t.deletion.title(record.type, record.name), body, view.chrome);
}

export interface TemplateReview {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  template: DnsTemplateId;
  /** The records the template adds, with the values given, as they will be stored. */
  drafts: RecordDraft[];
  /** The variables as given, carried by the confirmation. */
  values: Record<string, string>;
  errors: FormErrors;
}

/** The exact records a template adds, before they are added. */
export function templateReviewPage(view: TemplateReview): string {
  const { domain } = view;
  const { l } = view.chrome;
  const { t } = l;
  const title = t.templates.titles[view.template];
  const body = html`<p class="back"><a href="/domains/${domain.id}#template-${view.template}">${breakableName(domain.name)}</a></p>
<h1>${t.templates.reviewTitle(title, domain.name)}</h1>
${errorSummary(l, view.errors, t.templates.notApplied)}
<section class="card review" aria-labelledby="template-intro">
<p id="template-intro">${t.templates.reviewIntro}</p>
<table class="records">
<thead><tr><th scope="col">${t.dns.columns.type}</th><th scope="col">${t.dns.columns.name}</th><th scope="col">${t.dns.columns.content}</th><th scope="col">${t.dns.columns.ttl}</th></tr></thead>
<tbody>${view.drafts.map(
    (draft) =>
      html`<tr><td data-label="${t.dns.columns.type}"><span class="record-type">${draft.type}</span></td><td data-label="${t.dns.columns.name}"><code>${draft.name}</code></td><td data-label="${t.dns.columns.content}"><code class="record-content">${draft.content}</code>${draft.type === "MX" && draft.priority !== null && html` <span class="record-meta">(${t.dns.priority(draft.priority)})</span>`}</td><td data-label="${t.dns.columns.ttl}">${l.number(draft.ttl)}</td></tr>`,
  )}</tbody>
</table>
${
  view.errors.summary.length === 0 &&
  html`<form method="post" action="/domains/${domain.id}/templates" class="actions">
${csrfInput(view.csrfToken)}
<input type="hidden" name="template_id" value="${view.template}">
${Object.entries(view.values).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" class="primary">${t.templates.apply(view.drafts.length)}</button>
<a href="/domains/${domain.id}#template-${view.template}">${t.cancel}</a>
</form>`
}
</section>`;
  return page(l, t.templates.reviewTitle(title, domain.name), body, view.chrome);
}
