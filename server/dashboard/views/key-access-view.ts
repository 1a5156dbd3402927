/**
 * What a key may do, as the keys page shows and asks it: the scope grid (resource × none, read,
 * write, as Stripe's restricted-key form), the restriction fields, and the one-line summaries of a
 * stored key's scopes and restrictions for the list and the roll page.
 */
import type { StoredApiKey } from "../../partners/keys/api-key-store.js";
import { html, type Html } from "../../web/html.js";

export type AccessLevel = "none" | "read" | "write";

/** The resources of the scopes, in the grid's order; events are only read (the log is written by the service). */
export const SCOPE_RESOURCES = [
  { resource: "users", label: "Users", covers: "users and their sessions (login_url)", levels: ["none", "read", "write"] },
  {
    resource: "domains",
    label: "Domains",
    covers: "domains, prices, availability, transfers, renewals, nameservers",
    levels: ["none", "read", "write"],
  },
  {
    resource: "dns",
    label: "DNS records",
    covers: "records, bulk changes, change sets, templates, zone files",
    levels: ["none", "read", "write"],
  },
  { resource: "webhooks", label: "Webhook endpoints", covers: "endpoints, deliveries, test events", levels: ["none", "read", "write"] },
  { resource: "events", label: "Events", covers: "the event log", levels: ["none", "read"] },
  {
    resource: "sandbox",
    label: "Sandbox",
    covers: "the sandbox clock and test domains; a reset needs a full-access key",
    levels: ["none", "read", "write"],
  },
] as const satisfies ReadonlyArray<{ resource: string; label: string; covers: string; levels: readonly AccessLevel[] }>;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number]["resource"];
export type ScopeLevels = Record<ScopeResource, AccessLevel>;

export const NO_SCOPES: ScopeLevels = { users: "none", domains: "none", dns: "none", webhooks: "none", events: "none", sandbox: "none" };

const LEVEL_LABEL: Record<AccessLevel, string> = { none: "None", read: "Read", write: "Write" };

/** The grid's radio buttons are named per resource; their values are the levels. */
export const scopeFieldName = (resource: ScopeResource) => `scope_${resource}`;

/** The levels of stored scopes: write includes read, so a resource shows the higher of the two it has. */
export function levelsOf(scopes: readonly string[]): ScopeLevels {
  const levels = { ...NO_SCOPES };
  for (const scope of scopes) {
    const [resource, level] = scope.split(":") as [ScopeResource, AccessLevel];
    if (resource in levels && (level === "write" || (level === "read" && levels[resource] === "none"))) levels[resource] = level;
  }
  return levels;
}

/** The scopes the grid's levels grant, one per resource: `dns:write` alone, as it includes `dns:read`. */
export const scopesOf = (levels: ScopeLevels): string[] =>
  SCOPE_RESOURCES.filter(({ resource }) => levels[resource] !== "none").map(({ resource }) => `${resource}:${levels[resource]}`);

/** The grid: a row per resource, a radio button per level, each labelled by resource and level for screen readers. */
export function scopeGrid(options: { id: string; levels: ScopeLevels; error?: string }): Html {
  const { id, error } = options;
  const rows = SCOPE_RESOURCES.map(
    ({ resource, label, covers, levels }) => html`<tr>
<th scope="row">${label}<span class="hint scope-covers">${covers}</span></th>
${(["none", "read", "write"] as const).map((level) =>
  (levels as readonly AccessLevel[]).includes(level)
    ? html`<td><label class="scope-choice"><input type="radio" name="${scopeFieldName(resource)}" value="${level}"${options.levels[resource] === level && html` checked`}><span class="visually-hidden">${label}: ${level}</span></label></td>`
    : html`<td class="scope-none"><span aria-hidden="true">—</span><span class="visually-hidden">${label}: no ${level} scope</span></td>`,
)}
</tr>`,
  );
  return html`<fieldset class="field scope-grid${error ? " field-error" : ""}" id="${id}" aria-describedby="${id}-hint${error ? ` ${id}-error` : ""}">
<legend>Scopes</legend>
<p class="hint" id="${id}-hint">What the key may do. Write includes read. Anything else is refused with 403 <code>insufficient_scope</code>; managing keys needs a full-access key.</p>
${error && html`<p class="error-message" id="${id}-error"><span class="visually-hidden">Error: </span>${error}</p>`}
<div class="table-scroll"><table>
<thead><tr><th scope="col">Resource</th>${(["none", "read", "write"] as const).map((level) => html`<th scope="col" class="scope-level">${LEVEL_LABEL[level]}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table></div>
</fieldset>`;
}

/** "DNS records: write; Domains: read", or null for a full-access key. */
export function scopeSummary(scopes: readonly string[] | null): string | null {
  if (scopes === null) return null;
  const levels = levelsOf(scopes);
  const granted = SCOPE_RESOURCES.filter(({ resource }) => levels[resource] !== "none").map(
    ({ resource, label }) => `${label}: ${levels[resource]}`,
  );
  return granted.length > 0 ? granted.join("; ") : "nothing";
}

type Restrictions = NonNullable<StoredApiKey["restrictions"]>;

/** The restrictions a key can carry, in the form's order, with the words the page uses for each. */
export const RESTRICTION_FIELDS = [
  {
    field: "domains",
    property: "domains",
    id: "key-domains",
    label: "Domains",
    hint: "Only these domains (and their records), such as example.com. Empty: every domain of your users.",
  },
  {
    field: "record_names",
    property: "recordNames",
    id: "key-record-names",
    label: "Record names",
    hint: "Only DNS records of these names, relative to the domain: _acme-challenge, _acme-challenge.www, @ for the domain itself. Empty: any name.",
  },
  {
    field: "record_types",
    property: "recordTypes",
    id: "key-record-types",
    label: "Record types",
    hint: "Only DNS records of these types, such as TXT. Empty: any type.",
  },
  {
    field: "client_ips",
    property: "clientIps",
    id: "key-client-ips",
    label: "Client addresses",
    hint: "Only requests from these addresses or CIDR ranges, IPv4 or IPv6, such as 203.0.113.0/24 or 2001:db8::/32. Empty: from anywhere.",
  },
] as const satisfies ReadonlyArray<{ field: string; property: keyof Restrictions; id: string; label: string; hint: string }>;

export type RestrictionField = (typeof RESTRICTION_FIELDS)[number]["field"];

/** Each restriction of a key on a line of its own ("Record types: TXT"), or "None". */
export function restrictionSummary(restrictions: StoredApiKey["restrictions"]): Html {
  const lines = RESTRICTION_FIELDS.flatMap(({ property, label }) => {
    const values = restrictions?.[property];
    return values && values.length > 0 ? [html`<li>${label}: <code>${values.join(", ")}</code></li>`] : [];
  });
  return lines.length > 0 ? html`<ul class="restrictions">${lines}</ul>` : html`None`;
}

/** The access column of a key: full, or restricted with its scopes. */
export function accessSummary(key: Pick<StoredApiKey, "scopes">): Html {
  const scopes = scopeSummary(key.scopes);
  return scopes === null
    ? html`<span class="badge badge-full">Full access</span>`
    : html`<span class="badge badge-restricted">Restricted</span> <span class="scope-summary">${scopes}</span>`;
}
