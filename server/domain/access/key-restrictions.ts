/**
 * What a restricted key may touch, as the domain's rules see it: its domains, and the names and
 * types of the records it may write. The key's scopes and client addresses are checked before any
 * rule runs (server/partners/keys/key-grant.ts); these two need the domain and the record.
 */

/** The restrictions a key may carry besides its scopes; each null: not restricted in that respect. */
export interface KeyRestrictions {
  /** Lower-case A-labels of the domains the key may touch. */
  domains: string[] | null;
  /** Record names relative to the domain (`_acme-challenge`, `_acme-challenge.www`, `@`), lower case. */
  recordNames: string[] | null;
  /** Record types (`TXT`), upper case. */
  recordTypes: string[] | null;
  /** Client addresses as normalised CIDR ranges (`192.0.2.0/24`, `2001:db8::1/128`). */
  clientIps: string[] | null;
}

/** Which restriction refused a request, as `details.restriction` names it. */
export type RestrictionName = "domains" | "record_names" | "record_types" | "client_ips";

/** Whether a relative record name (`@` for the apex) and type fall within the key's restrictions. */
export function recordAllowed(restrictions: KeyRestrictions | null, name: string, type: string): RestrictionName | null {
  if (!restrictions) return null;
  if (restrictions.recordNames && !restrictions.recordNames.includes(name.toLowerCase())) return "record_names";
  if (restrictions.recordTypes && !restrictions.recordTypes.includes(type.toUpperCase())) return "record_types";
  return null;
}

/** Whether the key may touch the domain (its lower-case A-label). */
export function domainAllowed(restrictions: KeyRestrictions | null, domainName: string): boolean {
  return !restrictions?.domains || restrictions.domains.includes(domainName.toLowerCase());
}
