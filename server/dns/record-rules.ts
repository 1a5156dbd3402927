/**
 * The DNS rules of the spec (tag "DNS records (Variant D)"), in one place for every way a record
 * is written: both variants, bulk, templates, and the embedded interface.
 */
import { isIPv4, isIPv6 } from "node:net";
import type { DnsRecordRow } from "../store/types.js";
import { mailPolicyOf, secondPolicyMessage } from "./mail-policy-records.js";

export type RecordType = DnsRecordRow["type"];

/** A record as a caller wants it, in Variant D's terms (content, priority). */
export interface RecordDraft {
  type: RecordType;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
}

export interface RuleViolation {
  field: string;
  code: "invalid_format" | "invalid_value" | "out_of_range" | "too_long" | "missing_required_field";
  message: string;
}

const LABEL = "(?:_?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)";
const RECORD_NAME = new RegExp(`^(?:@|(?:\\*|${LABEL})(?:\\.${LABEL})*)$`);
const HOST_LABEL = "(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)";
const HOST_NAME = new RegExp(`^(?=.{1,253}\\.?$)${HOST_LABEL}(?:\\.${HOST_LABEL})+\\.?$`);
const TXT_QUOTED = /^"((?:[^"\\]|\\.)*)"(?:\s+"((?:[^"\\]|\\.)*)")*$/;
const MAX_TXT_STRING = 255;

export const isRecordName = (name: string) => name.length <= 253 && RECORD_NAME.test(name);
export const isHostName = (host: string) => HOST_NAME.test(host);

/** The strings of a TXT value: one unquoted string, or several double-quoted ones. */
export function txtStrings(content: string): string[] {
  if (!TXT_QUOTED.test(content)) return [content];
  return [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!.replace(/\\(.)/g, "$1"));
}

/** The text a TXT record carries: its strings joined without separators (RFC 7208 3.3). */
export const txtText = (content: string) => txtStrings(content).join("");

export interface SrvParts {
  priority: number;
  weight: number;
  port: number;
  target: string;
}

export function parseSrv(content: string): SrvParts | null {
  const parts = content.trim().split(/\s+/);
  if (parts.length !== 4) return null;
  const [priority, weight, port] = parts.slice(0, 3).map((part) => (/^\d{1,5}$/.test(part) ? Number(part) : NaN));
  const target = parts[3]!;
  if (![priority, weight, port].every((n) => n !== undefined && Number.isInteger(n) && n >= 0 && n <= 65535)) return null;
  if (target !== "." && !isHostName(target)) return null;
  return { priority: priority!, weight: weight!, port: port!, target };
}

const CONTENT_CHECKS: Record<RecordType, (content: string) => string | null> = {
  A: (c) => (isIPv4(c) ? null : "content must be a valid IPv4 address for A records"),
  // IPv4-mapped and IPv4-embedded forms (::ffff:1.2.3.4) are refused: they belong in A records.
  AAAA: (c) => (isIPv6(c) && !c.includes(".") ? null : "content must be a valid IPv6 address for AAAA records"),
  CNAME: (c) => (isHostName(c) ? null : "content must be a valid domain name for CNAME records"),
  MX: (c) => (isHostName(c) ? null : "content must be a valid domain name for MX records"),
  NS: (c) => (isHostName(c) ? null : "content must be a valid host name for NS records"),
  SRV: (c) => (parseSrv(c) ? null : "content must be 'priority weight port target' for SRV records, numbers 0 to 65535"),
  TXT: (c) =>
    txtStrings(c).every((s) => s.length <= MAX_TXT_STRING)
      ? null
      : `each TXT string must be at most ${MAX_TXT_STRING} characters; give longer text as several quoted strings`,
};

/** Every rule a single record must meet on its own; an empty list means valid. */
export function recordViolations(draft: RecordDraft): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (!isRecordName(draft.name)) {
    violations.push({ field: "name", code: "invalid_format", message: "name must be 1 to 253 characters of letters, digits, hyphens and dots, labels at most 63 characters, not starting or ending with a hyphen, or @ for the root" });
  }
  if (!Number.isInteger(draft.ttl) || draft.ttl < 60 || draft.ttl > 86400) {
    violations.push({ field: "ttl", code: "out_of_range", message: "ttl must be between 60 and 86400 seconds" });
  }
  const contentProblem = CONTENT_CHECKS[draft.type](draft.content);
  if (contentProblem) violations.push({ field: "content", code: "invalid_format", message: contentProblem });
  // RFC 1912 2.4: the zone apex holds SOA and NS records, so it cannot be a CNAME.
  if (draft.type === "CNAME" && draft.name === "@") {
    violations.push({ field: "name", code: "invalid_value", message: "a CNAME record cannot be created for the root (@)" });
  }
  if (draft.type === "MX" && draft.priority === null) {
    violations.push({ field: "priority", code: "missing_required_field", message: "priority is required for MX records" });
  }
  if (draft.type === "SRV" && draft.priority !== null && !contentProblem && parseSrv(draft.content)!.priority !== draft.priority) {
    violations.push({ field: "priority", code: "invalid_value", message: "priority must equal the first part of content for SRV records" });
  }
  if (draft.type !== "MX" && draft.type !== "SRV" && draft.priority !== null) {
    violations.push({ field: "priority", code: "invalid_value", message: `priority is only used by MX and SRV records, not ${draft.type}` });
  }
  return violations;
}

/** The priority a valid record is stored with: MX's own, SRV's from its content, null otherwise. */
export function storedPriority(draft: RecordDraft): number | null {
  if (draft.type === "MX") return draft.priority;
  if (draft.type === "SRV") return parseSrv(draft.content)?.priority ?? null;
  return null;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sameContent = (a: RecordDraft | DnsRecordRow, b: RecordDraft | DnsRecordRow) =>
  a.type === b.type && (a.type === "TXT" ? a.content === b.content : a.content.toLowerCase().replace(/\.$/, "") === b.content.toLowerCase().replace(/\.$/, ""));

export interface RecordConflict {
  code: "cname_conflict" | "duplicate_record" | "spf_conflict" | "dmarc_conflict";
  message: string;
}

/**
 * Zone rules against the other records of the domain (RFC 1034 3.6.2, RFC 2181 10.1: a CNAME owns
 * its name; one SPF and one DMARC record per name, see mail-policy-records.ts). `others` must not
 * include the record being updated.
 */
export function recordConflict(draft: RecordDraft, others: ReadonlyArray<RecordDraft | DnsRecordRow>): RecordConflict | null {
  const atName = others.filter((other) => sameName(other.name, draft.name));
  if (atName.some((other) => sameContent(other, draft))) {
    return { code: "duplicate_record", message: `An identical ${draft.type} record already exists at ${draft.name}` };
  }
  if (draft.type === "CNAME" && atName.length > 0) {
    return { code: "cname_conflict", message: `A CNAME record cannot share its name ${draft.name} with other records` };
  }
  if (atName.some((other) => other.type === "CNAME")) {
    return { code: "cname_conflict", message: `A CNAME record already exists at ${draft.name}; no other record can share its name` };
  }
  const policy = mailPolicyOf(draft, txtText(draft.content));
  if (policy && atName.some((other) => mailPolicyOf(other, txtText(other.content)) === policy)) {
    return { code: `${policy}_conflict`, message: secondPolicyMessage(policy, draft.name) };
  }
  return null;
}
