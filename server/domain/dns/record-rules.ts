/**
 * The DNS rules of the spec (tag "DNS records (Variant D)"), in one place for every way a record
 * is written: both variants, bulk, templates, change sets and the embedded interface. A draft is
 * parsed once into a ParsedRecord (or the rules it breaks); everything after works on that value.
 */
import { isAcceptableAsciiLabel } from "../catalog/domain-names.js";
import type { DnsRecordRow } from "./record-store.js";
import { readContent, txtStrings, type ParsedContent, type SrvParts } from "./record-content.js";
import type { CaaParts } from "./caa-content.js";
import type { SvcbParts } from "./svcb-content.js";
import { isTlsaName, type TlsaParts } from "./tlsa-content.js";
import { aliasConflict } from "./alias-records.js";
import { mailPolicyOf, secondPolicyMessage, type MailPolicy } from "./mail-policy-records.js";

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

/** What the zone rules compare a record by: canonical name and content, and the mail policy it publishes. */
export interface RecordKey {
  type: RecordType;
  name: string;
  content: string;
  mailPolicy: MailPolicy | null;
}

interface ParsedFields extends RecordKey {
  /** The name as the caller wrote it: messages quote it. */
  spelledName: string;
  ttl: number;
}

/**
 * A draft that meets every rule, in canonical form: what is compared, stored and answered, with
 * its content read into its type's parts. The priority is MX's own, SRV's from its content.
 */
export type ParsedRecord = ParsedFields &
  (
    | { type: "A" | "AAAA" | "CNAME" | "NS"; priority: null }
    | { type: "MX"; priority: number; exchange: string }
    | { type: "SRV"; priority: number; srv: SrvParts }
    | { type: "TXT"; priority: null; strings: string[] }
    | { type: "ALIAS"; priority: null }
    | { type: "CAA"; priority: null; caa: CaaParts }
    | { type: "HTTPS" | "SVCB"; priority: number; svcb: SvcbParts }
    | { type: "TLSA"; priority: null; tlsa: TlsaParts }
  );

/** The types that carry a priority: MX on its own, the others as the first part of their content. */
const PRIORITY_TYPES: ReadonlySet<RecordType> = new Set(["MX", "SRV", "HTTPS", "SVCB"]);
/** The types whose priority is the first part of their content, so a new content brings a new priority. */
const PRIORITY_IN_CONTENT: ReadonlySet<RecordType> = new Set(["SRV", "HTTPS", "SVCB"]);

export type RecordParse = { record: ParsedRecord; violations?: never } | { record?: never; violations: RuleViolation[] };

const LABEL = "(?:_?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)";
const RECORD_NAME = new RegExp(`^(?:@|(?:\\*|${LABEL})(?:\\.${LABEL})*)$`);
/** RFC 1035 2.3.4: 255 octets on the wire, 253 characters written without the root's trailing dot. */
const MAX_FULL_NAME = 253;

export const isRecordName = (name: string) => name.length <= 253 && RECORD_NAME.test(name) && name.split(".").every(isAcceptableAsciiLabel);

/** Owner names are case-insensitive (RFC 4343): stored and compared in lower case. */
export const canonicalName = (name: string) => name.toLowerCase();

/** The record's owner written out in full: the relative name and the domain, or the domain for `@`. */
const fullNameLength = (name: string, domainName: string) => (name === "@" ? domainName.length : name.length + 1 + domainName.length);

/** The text a TXT record carries: its strings joined without separators (RFC 7208 3.3). */
export const txtText = (content: string) => txtStrings(content).join("");

/** Reads a draft once: the canonical record, or every rule it breaks on its own (an empty list is never returned). */
export function parseRecord(draft: RecordDraft, domainName: string): RecordParse {
  const violations: RuleViolation[] = [];
  if (!isRecordName(draft.name)) {
    violations.push({
      field: "name",
      code: "invalid_format",
      message:
        "name must be 1 to 253 characters of letters, digits, hyphens and dots, labels at most 63 characters, not starting or ending with a hyphen, or @ for the root",
    });
  } else if (fullNameLength(draft.name, domainName) > MAX_FULL_NAME) {
    const room = MAX_FULL_NAME - domainName.length - 1;
    violations.push({
      field: "name",
      code: "too_long",
      message: `name and the domain together must be at most ${MAX_FULL_NAME} characters (RFC 1035); under ${domainName} a name has at most ${room}`,
    });
  }
  if (!Number.isInteger(draft.ttl) || draft.ttl < 60 || draft.ttl > 86400) {
    violations.push({ field: "ttl", code: "out_of_range", message: "ttl must be between 60 and 86400 seconds" });
  }
  const content = readContent(draft.type, draft.content);
  const value = "problem" in content ? null : content;
  if ("problem" in content) violations.push({ field: "content", code: "invalid_format", message: content.problem });
  // RFC 1912 2.4: the zone apex holds SOA and NS records, so it cannot be a CNAME.
  if (draft.type === "CNAME" && draft.name === "@") {
    violations.push({ field: "name", code: "invalid_value", message: "a CNAME record cannot be created for the root (@)" });
  }
  if (draft.type === "MX" && draft.priority === null) {
    violations.push({ field: "priority", code: "missing_required_field", message: "priority is required for MX records" });
  }
  if (value?.type === "SRV" && draft.priority !== null && value.srv.priority !== draft.priority) {
    violations.push({ field: "priority", code: "invalid_value", message: "priority must equal the first part of content for SRV records" });
  }
  if ((value?.type === "HTTPS" || value?.type === "SVCB") && draft.priority !== null && value.svcb.priority !== draft.priority) {
    violations.push({
      field: "priority",
      code: "invalid_value",
      message: `priority must equal the first part of content for ${value.type} records`,
    });
  }
  if (!PRIORITY_TYPES.has(draft.type) && draft.priority !== null) {
    violations.push({
      field: "priority",
      code: "invalid_value",
      message: `priority is only used by MX, SRV, HTTPS and SVCB records, not ${draft.type}`,
    });
  }
  // Flattening answers for the name itself; below the apex a CNAME does the same job.
  if (draft.type === "ALIAS" && draft.name !== "@") {
    violations.push({ field: "name", code: "invalid_value", message: "an ALIAS record can only be at the root (@)" });
  }
  if (draft.type === "TLSA" && isRecordName(draft.name) && !isTlsaName(draft.name)) {
    violations.push({
      field: "name",
      code: "invalid_value",
      message: "a TLSA record's name must begin with a port and a protocol, such as _443._tcp or _443._tcp.www (RFC 6698)",
    });
  }
  if (violations.length > 0 || value === null) return { violations };
  return { record: parsedRecord(draft, value) };
}

/** The record of a draft that broke no rule, `value` its content read. */
function parsedRecord(draft: RecordDraft, value: ParsedContent): ParsedRecord {
  const name = canonicalName(draft.name);
  const fields = { name, spelledName: draft.name, content: value.canonical, ttl: draft.ttl, mailPolicy: null };
  switch (value.type) {
    case "SRV":
      return { ...fields, type: "SRV", priority: value.srv.priority, srv: value.srv };
    case "TXT":
      return {
        ...fields,
        type: "TXT",
        priority: null,
        strings: value.strings,
        mailPolicy: mailPolicyOf({ type: "TXT", name }, value.strings.join("")),
      };
    case "MX":
      // The rules refuse an MX without priority before it is parsed.
      return { ...fields, type: "MX", priority: draft.priority as number, exchange: value.canonical };
    case "HTTPS":
    case "SVCB":
      return { ...fields, type: value.type, priority: value.svcb.priority, svcb: value.svcb };
    case "CAA":
      return { ...fields, type: "CAA", priority: null, caa: value.caa };
    case "TLSA":
      return { ...fields, type: "TLSA", priority: null, tlsa: value.tlsa };
    default:
      return { ...fields, type: value.type, priority: null };
  }
}

/** Every rule a single record of `domainName` must meet on its own; an empty list means valid. */
export const recordViolations = (draft: RecordDraft, domainName: string): RuleViolation[] =>
  parseRecord(draft, domainName).violations ?? [];

/**
 * The comparison key of a record already written (a stored row, or a draft that broke a rule): read
 * once; content its type cannot read is compared as it is (the rules refused it, or older rules let it in).
 */
export function keyOf(record: Pick<RecordDraft, "type" | "name" | "content">): RecordKey {
  const content = readContent(record.type, record.content);
  const name = canonicalName(record.name);
  if ("problem" in content)
    return { type: record.type, name, content: record.content, mailPolicy: mailPolicyOf(record, txtText(record.content)) };
  const text = content.type === "TXT" ? content.strings.join("") : record.content;
  return { type: record.type, name, content: content.canonical, mailPolicy: mailPolicyOf({ type: record.type, name }, text) };
}

/** The stored fields of a parsed record (DnsRecordRow without id, domain and times). */
export const storedFields = (record: ParsedRecord): Pick<DnsRecordRow, "type" | "name" | "content" | "ttl" | "priority"> => ({
  type: record.type,
  name: record.name,
  content: record.content,
  ttl: record.ttl,
  priority: record.priority,
});

/** A change to a stored record in Variant D's terms: each field given replaces the stored one. */
export interface RecordChange {
  name?: string;
  content?: string;
  ttl?: number;
  priority?: number | null;
}

/** The draft an update asks for: the stored record with the change over it. */
export function updatedDraft(before: DnsRecordRow, change: RecordChange): RecordDraft {
  const draft: RecordDraft = {
    type: before.type,
    name: change.name ?? before.name,
    content: change.content ?? before.content,
    ttl: change.ttl ?? before.ttl,
    // SRV keeps its priority in content: a new content brings a new priority.
    priority: change.priority ?? (before.type === "SRV" && change.content !== undefined ? null : before.priority),
  };
  if (PRIORITY_IN_CONTENT.has(before.type) && change.priority === undefined && change.content !== undefined)
    return { ...draft, priority: null };
  return draft;
}

// Both sides are keyed in canonical form, so a draft matches a stored row however either was spelt.
const sameContent = (a: RecordKey, b: RecordKey) => a.type === b.type && a.content === b.content;

export interface RecordConflict {
  code: "cname_conflict" | "duplicate_record" | "spf_conflict" | "dmarc_conflict" | "alias_conflict";
  message: string;
}

/**
 * Zone rules against the other records of the domain (RFC 1034 3.6.2, RFC 2181 10.1: a CNAME owns
 * its name; one SPF and one DMARC record per name, see mail-policy-records.ts). `others` must not
 * include the record being updated; `spelledName` is the name as the caller wrote it, for messages.
 */
export function zoneConflict(record: RecordKey, spelledName: string, others: readonly RecordKey[]): RecordConflict | null {
  const atName = others.filter((other) => other.name === record.name);
  if (atName.some((other) => sameContent(other, record))) {
    return { code: "duplicate_record", message: `An identical ${record.type} record already exists at ${spelledName}` };
  }
  if (record.type === "CNAME" && atName.length > 0) {
    return { code: "cname_conflict", message: `A CNAME record cannot share its name ${spelledName} with other records` };
  }
  if (atName.some((other) => other.type === "CNAME")) {
    return { code: "cname_conflict", message: `A CNAME record already exists at ${spelledName}; no other record can share its name` };
  }
  const policy = record.mailPolicy;
  if (policy && atName.some((other) => other.mailPolicy === policy)) {
    return { code: `${policy}_conflict`, message: secondPolicyMessage(policy, spelledName) };
  }
  const alias = aliasConflict(record.type, atName);
  if (alias) return { code: "alias_conflict", message: alias };
  return null;
}

/** zoneConflict for callers holding drafts and rows (the embedded interface's messages): each side is keyed here. */
export const recordConflict = (draft: RecordDraft, others: ReadonlyArray<RecordDraft | DnsRecordRow>): RecordConflict | null =>
  zoneConflict(keyOf(draft), draft.name, others.map(keyOf));
