/**
 * The DNS rules of the spec (tag "DNS records (Variant D)"), in one place for every way a record
 * is written: both variants, bulk, templates, and the embedded interface.
 */
import { isAcceptableAsciiLabel } from "../catalog/domain-names.js";
import type { DnsRecordRow } from "../store/types.js";
import { parseSrv, readContent, txtStrings } from "./record-content.js";
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
/** RFC 1035 2.3.4: 255 octets on the wire, 253 characters written without the root's trailing dot. */
const MAX_FULL_NAME = 253;

export const isRecordName = (name: string) => name.length <= 253 && RECORD_NAME.test(name) && name.split(".").every(isAcceptableAsciiLabel);

/** The record's owner written out in full: the relative name and the domain, or the domain for `@`. */
const fullNameLength = (name: string, domainName: string) => (name === "@" ? domainName.length : name.length + 1 + domainName.length);

/** The text a TXT record carries: its strings joined without separators (RFC 7208 3.3). */
export const txtText = (content: string) => txtStrings(content).join("");

/** Every rule a single record of `domainName` must meet on its own; an empty list means valid. */
export function recordViolations(draft: RecordDraft, domainName: string): RuleViolation[] {
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
  const contentProblem = "problem" in content ? content.problem : null;
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
    violations.push({
      field: "priority",
      code: "invalid_value",
      message: `priority is only used by MX and SRV records, not ${draft.type}`,
    });
  }
  return violations;
}

/** The priority a valid record is stored with: MX's own, SRV's from its content, null otherwise. */
export function storedPriority(draft: RecordDraft): number | null {
  if (draft.type === "MX") return draft.priority;
  if (draft.type === "SRV") return parseSrv(draft.content)?.priority ?? null;
  return null;
}

/** The content's canonical spelling; content its type cannot read is left as it is (the rules refuse it). */
function canonicalContent(type: RecordType, content: string): string {
  const reading = readContent(type, content);
  return "canonical" in reading ? reading.canonical : content;
}

/** A record as it is stored: name in lower case (RFC 4343), content in its type's canonical spelling. */
export function canonicalRecord(draft: RecordDraft): RecordDraft {
  return {
    ...draft,
    name: draft.name.toLowerCase(),
    content: canonicalContent(draft.type, draft.content),
    priority: storedPriority(draft),
  };
}

// Both sides are compared in canonical form, so a draft matches a stored row however either was spelt.
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sameContent = (a: RecordDraft | DnsRecordRow, b: RecordDraft | DnsRecordRow) =>
  a.type === b.type && canonicalContent(a.type, a.content) === canonicalContent(b.type, b.content);

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
