/**
 * What a key may do (issue 36): its scopes, its restrictions and its expiry. A key without a grant
 * (scopes null) is a full key, as every key was before; the API makes restricted keys only, the
 * dashboard either. The same parser serves the API's `POST /api/v1/api_keys` and the dashboard's form.
 */
import ipaddr from "ipaddr.js";
import { keyScopes, type RequiredScope, type Scope } from "../../../generated/operations.js";
import { parseDomainName } from "../../domain/catalog/domain-names.js";
import type { KeyRestrictions, RestrictionName } from "../../domain/access/key-restrictions.js";

export type { RequiredScope, Scope } from "../../../generated/operations.js";
export { keyScopes } from "../../../generated/operations.js";

/** What a key is granted; `scopes` null: a full key (no restrictions either). */
export interface KeyGrant {
  scopes: Scope[] | null;
  restrictions: KeyRestrictions | null;
  expiresAt: Date | null;
}

export const FULL_GRANT: KeyGrant = { scopes: null, restrictions: null, expiresAt: null };

/** The scope decision of a request, as the request log keeps it. */
export type ScopeDecision =
  | { outcome: "allowed" }
  | { outcome: "insufficient_scope"; requiredScope: RequiredScope }
  | { outcome: "key_restricted"; restriction: RestrictionName };

export interface GrantProblem {
  field: string;
  message: string;
}

/** The most entries one restriction list may hold: a key is for one job. */
export const MAX_RESTRICTION_ENTRIES = 100;
/** The furthest expiry a key may be given, in days. */
export const MAX_KEY_LIFETIME_DAYS = 366;

/** Whether the scopes include `required`: a `write` scope includes the `read` of its resource. */
export function scopesAllow(scopes: readonly Scope[] | null, required: RequiredScope): boolean {
  if (required === "any" || scopes === null) return true;
  if (required === "unrestricted") return false;
  if (scopes.includes(required)) return true;
  const [resource, access] = required.split(":");
  return access === "read" && scopes.includes(`${resource}:write` as Scope);
}

/** Whether the key is a full key: no scopes means every scope and no restriction. */
export const isFullGrant = (grant: Pick<KeyGrant, "scopes">) => grant.scopes === null;

const RECORD_NAME = /^(@|\*|(\*\.)?[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*)$/;
const RECORD_TYPE = /^[A-Z][A-Z0-9]{0,9}$/;

/** A client address or range as a normalised CIDR, or null when it is neither. */
export function normalizeClientRange(text: string): string | null {
  try {
    if (text.includes("/")) {
      const [address, prefix] = ipaddr.parseCIDR(text);
      const network = address.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
      return `${network.toString()}/${prefix}`;
    }
    const address = ipaddr.parse(text);
    return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}

/** Whether the client address (as the socket gives it; IPv4-mapped IPv6 read as IPv4) lies in one of the ranges. */
export function clientAllowed(ranges: readonly string[], address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return ranges.some((range) => {
    const [network, prefix] = ipaddr.parseCIDR(range);
    return network.kind() === parsed.kind() && parsed.match(network, prefix);
  });
}

type ListResult = { values: string[] | null; problems: GrantProblem[] };

function parseList(value: unknown, field: string, normalize: (entry: string) => string | null, what: string): ListResult {
  if (value === undefined || value === null) return { values: null, problems: [] };
  if (!Array.isArray(value)) return { values: null, problems: [{ field, message: `${field} is a list of ${what}.` }] };
  if (value.length === 0 || value.length > MAX_RESTRICTION_ENTRIES)
    return {
      values: null,
      problems: [{ field, message: `${field} holds 1 to ${MAX_RESTRICTION_ENTRIES} entries; leave it out for no restriction.` }],
    };
  const problems: GrantProblem[] = [];
  const values = new Set<string>();
  value.forEach((entry, index) => {
    const normalized = typeof entry === "string" ? normalize(entry.trim()) : null;
    if (normalized === null) problems.push({ field: `${field}.${index}`, message: `Not ${what}: ${String(entry)}.` });
    else values.add(normalized);
  });
  return { values: [...values], problems };
}

const normalizeRecordName = (name: string) => {
  const lower = name.toLowerCase();
  return RECORD_NAME.test(lower) && lower.length <= 253 ? lower : null;
};
const normalizeRecordType = (type: string) => (RECORD_TYPE.test(type.toUpperCase()) ? type.toUpperCase() : null);
const normalizeDomain = (name: string) => {
  try {
    return parseDomainName(name, "restrictions.domains").name;
  } catch {
    return null;
  }
};

/**
 * The grant asked for, checked and normalised, or every problem with it. `scopes` absent: a full
 * key (the caller decides whether it may make one; the API may not).
 */
export function parseKeyGrant(
  input: { scopes?: unknown; restrictions?: unknown; expires_at?: unknown },
  now: Date,
): { grant: KeyGrant } | { problems: GrantProblem[] } {
  const problems: GrantProblem[] = [];
  let scopes: Scope[] | null = null;
  if (input.scopes !== undefined && input.scopes !== null) {
    if (!Array.isArray(input.scopes) || input.scopes.length === 0)
      problems.push({ field: "scopes", message: "Name at least one scope, such as dns:write." });
    else {
      const unknown = input.scopes.filter((scope) => !keyScopes.includes(scope as Scope));
      if (unknown.length > 0) problems.push({ field: "scopes", message: `Unknown scope: ${unknown.map(String).join(", ")}.` });
      scopes = [...new Set(input.scopes as Scope[])].sort((a, b) => keyScopes.indexOf(a) - keyScopes.indexOf(b));
    }
  }
  let restrictions: KeyRestrictions | null = null;
  const given = input.restrictions;
  if (given !== undefined && given !== null) {
    if (typeof given !== "object" || Array.isArray(given)) problems.push({ field: "restrictions", message: "restrictions is an object." });
    else {
      const fields = given as Record<string, unknown>;
      const domains = parseList(fields.domains, "restrictions.domains", normalizeDomain, "a domain name");
      const recordNames = parseList(fields.record_names, "restrictions.record_names", normalizeRecordName, "a record name");
      const recordTypes = parseList(fields.record_types, "restrictions.record_types", normalizeRecordType, "a record type");
      const clientIps = parseList(fields.client_ips, "restrictions.client_ips", normalizeClientRange, "an IP address or CIDR range");
      problems.push(...domains.problems, ...recordNames.problems, ...recordTypes.problems, ...clientIps.problems);
      const known = new Set(["domains", "record_names", "record_types", "client_ips"]);
      for (const field of Object.keys(fields))
        if (!known.has(field)) problems.push({ field: `restrictions.${field}`, message: `Unknown restriction: ${field}.` });
      restrictions = {
        domains: domains.values,
        recordNames: recordNames.values,
        recordTypes: recordTypes.values,
        clientIps: clientIps.values,
      };
      if (Object.values(restrictions).every((value) => value === null)) restrictions = null;
    }
  }
  if (restrictions !== null && scopes === null)
    problems.push({ field: "restrictions", message: "A key with restrictions names its scopes too." });
  let expiresAt: Date | null = null;
  if (input.expires_at !== undefined && input.expires_at !== null && input.expires_at !== "") {
    const parsed = typeof input.expires_at === "string" ? new Date(input.expires_at) : null;
    if (!parsed || Number.isNaN(parsed.getTime()))
      problems.push({ field: "expires_at", message: "expires_at is a date and time (RFC 3339)." });
    else if (parsed.getTime() <= now.getTime()) problems.push({ field: "expires_at", message: "expires_at lies in the future." });
    else if (parsed.getTime() > now.getTime() + MAX_KEY_LIFETIME_DAYS * 86_400_000)
      problems.push({ field: "expires_at", message: `expires_at lies at most ${MAX_KEY_LIFETIME_DAYS} days ahead.` });
    else expiresAt = parsed;
  }
  return problems.length > 0 ? { problems } : { grant: { scopes, restrictions, expiresAt } };
}

/** The first problem of a grant as one sentence, or null: the dashboard's form shows one message per field. */
export function keyGrantProblem(input: { scopes?: unknown; restrictions?: unknown; expires_at?: unknown }, now: Date): string | null {
  const parsed = parseKeyGrant(input, now);
  return "problems" in parsed ? parsed.problems[0]!.message : null;
}
