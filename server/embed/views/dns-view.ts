/** A domain's page: its facts and DNS records (list, add, edit, delete, apply a template). */
import { entityTag } from "../../concurrency/entity-tags.js";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import type { DnsRecordRow, DomainRow } from "../../store/types.js";
import { NO_ERRORS, type FormState } from "../forms.js";
import { html, type Html } from "../../web/html.js";
import { csrfInput, errorSummary, select, textInput } from "./controls.js";
import { statusBadge } from "./domains-view.js";
import { dateOf } from "./format.js";
import { notice, page, type Chrome } from "./layout.js";

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "SRV", "TXT"] as const satisfies ReadonlyArray<DnsRecordRow["type"]>;

/** What the content of each type holds; the page gives them to the script, which shows the hint of the type chosen. */
export const CONTENT_HINTS: Record<DnsRecordRow["type"], string> = {
  A: "An IPv4 address, such as 192.0.2.10",
  AAAA: "An IPv6 address, such as 2001:db8::10",
  CNAME: "The host name this name points to, such as example.net",
  MX: "The mail server's host name, such as mail.example.com",
  NS: "A name server's host name, such as ns1.example.net",
  SRV: "Priority, weight, port and target, such as 10 5 5060 sip.example.com",
  TXT: "Text; give text longer than 255 characters as several quoted strings",
};

const TEMPLATE_TITLES: Record<DnsTemplateId, string> = {
  "google-workspace": "Google Workspace",
  "microsoft-365": "Microsoft 365",
  fastmail: "Fastmail",
  "github-pages": "GitHub Pages",
  "web-host": "Web host",
  "spf-dmarc": "SPF and DMARC",
};

/** The UI's default TTL: an hour, a common registrar default. */
export const DEFAULT_TTL = "3600";

export interface DnsView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  records: DnsRecordRow[];
  notice: string | null;
  /** The add form as it was sent, when it was refused. */
  addRecord?: FormState;
  /** A template form as it was sent, when it was refused. */
  template?: { id: DnsTemplateId; state: FormState };
}

export const recordFormFields = ["type", "name", "content", "ttl", "priority"] as const;

/** The fields of a record form; `type` is fixed when editing (as in the API's update). */
export function recordFields(prefix: string, state: FormState | undefined, type: DnsRecordRow["type"] | null): Html {
  const values = state?.values ?? {};
  const errors = state?.errors ?? NO_ERRORS;
  const chosenType = (type ?? values.type ?? "A") as DnsRecordRow["type"];
  return html`${
    type === null
      ? select({
          id: `${prefix}-type`,
          name: "type",
          label: "Type",
          value: chosenType,
          choices: RECORD_TYPES.map((t) => ({ value: t, label: t })),
          error: errors.fields.type,
        })
      : html`<p class="fixed-field">Type <strong>${type}</strong></p>`
  }
${textInput({ id: `${prefix}-name`, name: "name", label: "Name", value: values.name ?? "@", hint: "@ for the domain itself, or a subdomain such as www", error: errors.fields.name, spellcheck: false })}
${textInput({ id: `${prefix}-content`, name: "content", label: "Content", value: values.content ?? "", hint: CONTENT_HINTS[RECORD_TYPES.includes(chosenType) ? chosenType : "A"], error: errors.fields.content, spellcheck: false })}
${textInput({ id: `${prefix}-ttl`, name: "ttl", label: "TTL (seconds)", value: values.ttl ?? DEFAULT_TTL, hint: "60 to 86400", inputmode: "numeric", error: errors.fields.ttl })}
${textInput({ id: `${prefix}-priority`, name: "priority", label: "Priority", value: values.priority ?? "", hint: "MX records only; lower is preferred", inputmode: "numeric", error: errors.fields.priority })}`;
}

function recordItem(domain: DomainRow, record: DnsRecordRow, csrfToken: string): Html {
  const described = `${record.type} record ${record.name}`;
  return html`<li class="record" id="record-${record.id}">
<p class="record-main"><span class="record-type">${record.type}</span> <code class="record-name">${record.name}</code> <span aria-hidden="true">→</span><span class="visually-hidden">points to</span> <code class="record-content">${record.content}</code></p>
<p class="record-meta">TTL ${record.ttl}${record.priority !== null && html` · priority ${record.priority}`}</p>
<div class="record-actions">
<a href="/domains/${domain.id}/dns/${record.id}/edit">Edit<span class="visually-hidden"> ${described}</span></a>
<form method="post" action="/domains/${domain.id}/dns/${record.id}/delete" data-confirm="Delete the ${described}?">
${csrfInput(csrfToken)}
<input type="hidden" name="etag" value="${entityTag(record)}">
<button type="submit" class="danger">Delete<span class="visually-hidden"> ${described}</span></button>
</form>
</div>
</li>`;
}

function templateForm(view: DnsView, id: DnsTemplateId): Html {
  const template = dnsTemplates[id];
  const failed = view.template?.id === id ? view.template.state : undefined;
  const errors = failed?.errors ?? NO_ERRORS;
  const variables = Object.entries(template.variables as Record<string, { required: boolean; default?: string; enum?: readonly string[] }>);
  const inputs = variables.map(([name, spec]) => {
    const field = `variables.${name}`;
    const hint =
      [spec.enum && `One of ${spec.enum.join(", ")}`, spec.default !== undefined && `Default ${spec.default}`].filter(Boolean).join("; ") ||
      undefined;
    return textInput({
      id: `template-${id}-${name}`,
      name: field,
      label: name.replace(/_/g, " "),
      value: failed?.values[field] ?? "",
      required: spec.required,
      hint,
      error: errors.fields[field],
      spellcheck: false,
    });
  });
  const preview = template.records.map((record) => html`<li><code>${record.type} ${record.name} ${record.content}</code></li>`);
  return html`<details class="template" id="template-${id}"${failed && html` open`}>
<summary>${TEMPLATE_TITLES[id]}</summary>
<p>Adds these records:</p>
<ul class="template-records">${preview}</ul>
<form method="post" action="/domains/${view.domain.id}/templates" novalidate>
${csrfInput(view.csrfToken)}
<input type="hidden" name="template_id" value="${id}">
${errorSummary(errors, "The template was not applied")}
${inputs}
<button type="submit">Apply ${TEMPLATE_TITLES[id]}</button>
</form>
</details>`;
}

export function dnsPage(view: DnsView): string {
  const { domain } = view;
  const records =
    view.records.length > 0
      ? html`<ul class="records">${view.records.map((record) => recordItem(domain, record, view.csrfToken))}</ul>`
      : html`<p>No DNS records yet.</p>`;
  const body = html`<p class="back"><a href="/domains">Your domains</a></p>
<h1>${domain.name}</h1>
${notice(view.notice)}
<dl class="facts">
<div><dt>Status</dt><dd>${statusBadge(domain.status)}</dd></div>
<div><dt>Expires</dt><dd>${dateOf(domain.expiresAt)}</dd></div>
<div><dt>Auto-renew</dt><dd>${domain.autoRenew ? "On" : "Off"}</dd></div>
<div><dt>WHOIS privacy</dt><dd>${domain.whoisPrivacy ? "On" : "Off"}</dd></div>
<div><dt>Name servers</dt><dd>${domain.nameservers.join(", ")}</dd></div>
</dl>
<section aria-labelledby="records-title">
<h2 id="records-title">DNS records</h2>
${records}
</section>
<section aria-labelledby="add-title" class="card">
<h2 id="add-title">Add a record</h2>
<form method="post" action="/domains/${domain.id}/dns" class="record-form" data-content-hints="${JSON.stringify(CONTENT_HINTS)}" novalidate>
${csrfInput(view.csrfToken)}
${errorSummary(view.addRecord?.errors ?? NO_ERRORS, "The record was not added")}
${recordFields("add", view.addRecord, null)}
<button type="submit" class="primary">Add record</button>
</form>
</section>
<section aria-labelledby="templates-title">
<h2 id="templates-title">Apply a template</h2>
<p>A template adds the records a service needs, all or none.</p>
${(Object.keys(dnsTemplates) as DnsTemplateId[]).map((id) => templateForm(view, id))}
</section>`;
  return page(domain.name, body, view.chrome);
}

export interface RecordEditView {
  chrome: Chrome;
  csrfToken: string;
  domain: DomainRow;
  /** The record as stored now: the form saves over this state only (its entity tag goes with the form). */
  record: DnsRecordRow;
  state: FormState;
  /** Set when someone else changed the record while the user edited it: their input stays in the form, the current values are shown. */
  changedMeanwhile?: boolean;
}

/** What a user is told when the record they edit was changed by someone else since they opened the form. */
function changedMeanwhileWarning(record: DnsRecordRow): Html {
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>Someone else changed this record while you were editing it</h2>
<p>Nothing was saved. The record now reads:</p>
<ul><li>Name <code>${record.name}</code></li><li>Value <code>${record.content}</code></li><li>TTL ${record.ttl}${record.priority !== null && html` · priority ${record.priority}`}</li></ul>
<p>Your changes are still in the form below. Save again to replace the current values with yours, or cancel to keep them.</p></div>`;
}

export function recordEditPage(view: RecordEditView): string {
  const { domain, record } = view;
  const body = html`<p class="back"><a href="/domains/${domain.id}">${domain.name}</a></p>
<h1>Edit ${record.type} record ${record.name}</h1>
<form method="post" action="/domains/${domain.id}/dns/${record.id}" class="record-form card" novalidate>
${csrfInput(view.csrfToken)}
<input type="hidden" name="etag" value="${entityTag(record)}">
${view.changedMeanwhile ? changedMeanwhileWarning(record) : errorSummary(view.state.errors, "The record was not saved")}
${recordFields("edit", view.state, record.type)}
<button type="submit" class="primary">Save record</button>
<a href="/domains/${domain.id}">Cancel</a>
</form>`;
  return page(`Edit ${record.type} record: ${domain.name}`, body, view.chrome);
}
