/**
 * The form that makes a key: its name, full or restricted access, the scope grid and restrictions
 * of a restricted key, an optional expiry in UTC, and the presets that fill it for a common job.
 * Works without the script; the script only hides what a full-access key does not take.
 */
import { MAX_KEY_NAME_LENGTH } from "../../partners/keys/key-management.js";
import { html, type Html } from "../../web/html.js";
import { csrfInput, type FormErrors, input, linkedErrorSummary, NO_ERRORS, radios, textarea } from "./controls.js";
import { NO_SCOPES, RESTRICTION_FIELDS, type RestrictionField, type ScopeLevels, scopeGrid } from "./key-access-view.js";

export type KeyKind = "full" | "restricted";
export const KEY_KINDS: readonly KeyKind[] = ["full", "restricted"];

/** The presets offered; "" is none. */
export const KEY_PRESETS = ["", "acme"] as const;
export type KeyPreset = (typeof KEY_PRESETS)[number];

/** The form as sent (or as a preset fills it), to show again beside its errors. */
export interface KeyFormValues {
  name: string;
  kind: KeyKind;
  levels: ScopeLevels;
  /** One text per restriction: values one per line or separated by commas. */
  restrictions: Record<RestrictionField, string>;
  /** YYYY-MM-DD and HH:MM in UTC; both empty: no expiry. */
  expiresDate: string;
  expiresTime: string;
  preset: KeyPreset;
}

const NO_RESTRICTIONS: Record<RestrictionField, string> = { domains: "", record_names: "", record_types: "", client_ips: "" };

export const EMPTY_KEY_FORM: KeyFormValues = {
  name: "",
  kind: "full",
  levels: NO_SCOPES,
  restrictions: NO_RESTRICTIONS,
  expiresDate: "",
  expiresTime: "",
  preset: "",
};

/**
 * An ACME client (certbot, lego, acme.sh) proving a domain by DNS-01 writes and deletes one TXT
 * record, `_acme-challenge` (RFC 8555 8.4), and needs nothing else: the domain is the one thing
 * the member must add.
 */
export const ACME_PRESET: KeyFormValues = {
  ...EMPTY_KEY_FORM,
  name: "ACME client",
  kind: "restricted",
  levels: { ...NO_SCOPES, dns: "write" },
  restrictions: { ...NO_RESTRICTIONS, record_names: "_acme-challenge", record_types: "TXT" },
  preset: "acme",
};

/** The id of each field that can have a problem, for the error summary's links. */
export const KEY_FIELD_IDS: Readonly<Record<string, string>> = {
  name: "key-name",
  // A fieldset takes no focus: the summary leads to its first choice.
  kind: "key-kind-0",
  scopes: "key-scopes",
  ...Object.fromEntries(RESTRICTION_FIELDS.map(({ field, id }) => [field, id])),
  expires_at: "key-expires-date",
};

function presetLinks(current: KeyPreset): Html {
  return html`<p class="presets">Start from a preset: <a href="/keys?preset=acme#create-heading"${current === "acme" && html` aria-current="true"`}>ACME client (DNS-01 challenge)</a></p>`;
}

const ACME_NOTICE = html`<p class="notice" role="status" tabindex="-1">Filled in for an ACME client (certbot, lego, acme.sh) proving a domain with the DNS-01 challenge: it may write only TXT records named <code>_acme-challenge</code>. Enter the domain it gets certificates for; add <code>_acme-challenge.www</code> and the like for names under it.</p>`;

export function createKeyForm(options: { csrfToken: string; values: KeyFormValues; errors?: FormErrors }): Html {
  const { values } = options;
  const errors = options.errors ?? NO_ERRORS;
  const acme = values.preset === "acme";
  return html`${presetLinks(values.preset)}
${acme && errors.summary.length === 0 && ACME_NOTICE}
${linkedErrorSummary(errors, KEY_FIELD_IDS)}
<form method="post" action="/keys" class="key-form" novalidate>
${csrfInput(options.csrfToken)}
${values.preset && html`<input type="hidden" name="preset" value="${values.preset}">`}
${input({ id: "key-name", name: "name", label: "Name", hint: `Where the key is used, such as “Checkout service”; at most ${MAX_KEY_NAME_LENGTH} characters.`, value: values.name, error: errors.fields.name, required: true })}
${radios({
  id: "key-kind",
  name: "kind",
  legend: "Access",
  value: values.kind,
  error: errors.fields.kind,
  choices: [
    { value: "full", label: "Full access", hint: "Everything your account can do through the API, including managing keys." },
    {
      value: "restricted",
      label: "Restricted",
      hint: "Only the scopes you choose below, optionally only for some domains, records or client addresses.",
    },
  ],
})}
<div class="restricted-only" data-restricted-only>
${scopeGrid({ id: "key-scopes", levels: values.levels, error: errors.fields.scopes })}
<fieldset class="field restrictions-group">
<legend>Restrictions (optional)</legend>
<p class="hint">Values one per line or separated by commas. A request outside them is refused with 403 <code>key_restricted</code>.</p>
${RESTRICTION_FIELDS.map(({ field, id, label, hint }) =>
  textarea({
    id,
    name: field,
    label: field === "domains" && acme ? "Domains" : `${label} (optional)`,
    hint,
    value: values.restrictions[field],
    error: errors.fields[field],
    rows: 2,
    required: field === "domains" && acme,
  }),
)}
</fieldset>
</div>
<fieldset class="field expiry" aria-describedby="key-expires-hint">
<legend>Expires (optional, UTC)</legend>
<p class="hint" id="key-expires-hint">From this date and time in UTC the key is refused. Empty: until you revoke it.</p>
<div class="expiry-row">
${input({ id: "key-expires-date", name: "expires_date", label: "Date (UTC)", type: "date", value: values.expiresDate, hint: "As YYYY-MM-DD", error: errors.fields.expires_at })}
${input({ id: "key-expires-time", name: "expires_time", label: "Time (UTC)", type: "time", value: values.expiresTime, hint: "00:00 if empty" })}
</div>
</fieldset>
<button type="submit" class="button button-primary">Create key</button>
</form>`;
}
