/**
 * The API's refusals in a domain owner's words. The services refuse with an ApiError whose
 * `details` name the field and the rule (`field`, `code`); this module turns each rule into a
 * sentence of the catalogue, said next to its field, using what the page knows (the record's type,
 * the domain, the template). A rule without a sentence here gets `errors.unexpected`, which
 * test/server/embed/messages.test.ts makes sure no rule the interface can break reaches.
 */
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import { findTld } from "../../domain/catalog/tlds.js";
import { dnsLimits } from "../../../generated/operations.js";
import type { RecordConflict, RecordType, RuleViolation } from "../../domain/dns/record-rules.js";
import type { ApiError } from "../../platform/errors.js";
import { COMMENT_MAX_LENGTH } from "../../domain/dns/record-annotations.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import type { FormErrors } from "../../web/controls.js";
import type { Localizer } from "./localizer.js";

/** RFC 1035: a name written out in full has at most 253 characters. */
const MAX_FULL_NAME = 253;

/** What the page knows about what the user was doing when the rule was broken. */
export interface ErrorSituation {
  /** The record's type and name, for a record form. */
  record?: { type: RecordType; name: string };
  domain?: DomainRow;
  template?: DnsTemplateId;
  /** What the user typed into the search or purchase, as sent. */
  query?: string;
  /** The most years the domain can be renewed for now. */
  renewableYears?: number;
}

interface Problem {
  field: string | undefined;
  code: string | undefined;
}

export function conflictMessage(l: Localizer, code: RecordConflict["code"], record: { type: RecordType; name: string }): string {
  const { errors } = l.t;
  switch (code) {
    case "duplicate_record":
      return errors.duplicate(record.type, record.name);
    case "cname_conflict":
      return record.type === "CNAME" ? errors.cnameTaken(record.name) : errors.cnameHere(record.name);
    case "spf_conflict":
      return errors.spfTwice(record.name);
    case "dmarc_conflict":
      return errors.dmarcTwice(record.name);
    case "alias_conflict":
      return record.type === "ALIAS" ? l.t.recordTypes.aliasBeside(record.name) : l.t.recordTypes.aliasHere(record.name);
  }
}

const isConflictCode = (code: string | undefined): code is RecordConflict["code"] =>
  code === "duplicate_record" ||
  code === "cname_conflict" ||
  code === "spf_conflict" ||
  code === "dmarc_conflict" ||
  code === "alias_conflict";

function variableMessage(l: Localizer, template: DnsTemplateId | undefined, name: string, code: string | undefined): string | null {
  const { errors, templates } = l.t;
  const spec = template ? (dnsTemplates[template].variables as Record<string, { type: string; max_length?: number }>)[name] : undefined;
  switch (code) {
    case "missing_required_field":
      return templates.variables[name]?.missing ?? null;
    case "invalid_format":
      return spec ? (errors.variableFormat[spec.type] ?? null) : null;
    case "too_long":
      return spec?.max_length !== undefined ? errors.variableTooLong(spec.max_length) : null;
    case "invalid_value":
      return errors.choose;
    default:
      return null;
  }
}

/** The ending a query names, as its user wrote it (lower case, without a trailing dot). */
const endingOf = (query: string) => query.trim().toLowerCase().replace(/\.$/, "").split(".").pop() ?? "";

function domainNameMessage(l: Localizer, code: string | undefined, situation: ErrorSituation): string {
  const { errors } = l.t;
  const query = situation.query ?? "";
  if (code === "invalid_value") {
    const ending = endingOf(query);
    return findTld(ending) ? errors.endingClosed(ending) : errors.endingNotOffered(ending);
  }
  // Refused characters (IDNA2008) read differently from a shape that is no name at all.
  return /^[A-Za-z0-9.-]*$/.test(query.trim()) ? errors.domainName : errors.domainCharacters;
}

/** A name the record's type cannot have: CNAME at the root, ALIAS off it, TLSA without its port and protocol. */
function nameForTypeMessage(l: Localizer, type: RecordType | undefined): string {
  if (type === "ALIAS") return l.t.recordTypes.aliasAtRoot;
  if (type === "TLSA") return l.t.recordTypes.tlsaName;
  return l.t.errors.cnameAtRoot;
}

function priorityValueMessage(l: Localizer, type: RecordType | undefined): string {
  if (type === "SRV") return l.t.errors.prioritySrv;
  if (type === "HTTPS" || type === "SVCB") return l.t.recordTypes.priorityInContent;
  return l.t.errors.priorityUnused;
}

/** The sentence for one broken rule, or null when the catalogue has none. */
function messageOf(l: Localizer, problem: Problem, situation: ErrorSituation, apiCode?: string): string | null {
  const { errors, statuses } = l.t;
  const { field, code } = problem;
  const record = situation.record;
  if (code === "control_character" || code === "invalid_unicode") return errors.plainText;
  if (code === "repeated_field" || field === "etag") return errors.reload;
  if (code === "record_limit_exceeded") return errors.recordLimit(l.number(dnsLimits.records_per_domain));
  if (apiCode === "conflict" && isConflictCode(code) && record) return conflictMessage(l, code, record);
  if (field?.startsWith("variables.")) return variableMessage(l, situation.template, field.slice("variables.".length), code);
  switch (field) {
    case "name":
      if (code === "invalid_format") return errors.name;
      if (code === "too_long" && situation.domain) return errors.nameTooLong(MAX_FULL_NAME - situation.domain.name.length - 1);
      if (code === "invalid_value") return nameForTypeMessage(l, record?.type);
      return null;
    case "ttl":
      return errors.ttl;
    case "content":
      return record ? errors.content[record.type] : null;
    case "priority":
      if (code === "missing_required_field") return errors.priorityMissing;
      if (code === "invalid_type") return errors.priorityNumber;
      if (code === "invalid_value") return priorityValueMessage(l, record?.type);
      return null;
    case "comment":
      return code === "too_long" ? l.t.recordNotes.commentTooLong(COMMENT_MAX_LENGTH) : errors.plainText;
    case "type":
    case "template_id":
    case "auto_renew":
    case "whois_privacy":
      return code === "invalid_value" ? errors.choose : null;
    case "q":
    case "domain_name":
      if (code === "not_available" || code === "already_registered")
        return errors.notAvailable(situation.query?.trim().toLowerCase() ?? "");
      return domainNameMessage(l, code, situation);
    case "years":
      if (situation.domain && situation.renewableYears !== undefined && code === "out_of_range")
        return errors.renewAtMost(situation.domain.name, situation.renewableYears);
      return errors.years;
    case "status":
      return situation.domain ? errors.notRenewable(situation.domain.name, statuses[situation.domain.status]) : null;
    default:
      return null;
  }
}

/** A refusal of the services as the form shows it: the sentence at its field and in the summary. */
export function friendlyErrors(l: Localizer, error: ApiError, situation: ErrorSituation = {}): FormErrors {
  const field = typeof error.details?.field === "string" ? error.details.field : undefined;
  const code = typeof error.details?.code === "string" ? error.details.code : undefined;
  const message = messageOf(l, { field, code }, situation, error.code) ?? l.t.errors.unexpected;
  return { fields: field ? { [field]: message } : {}, summary: [message] };
}

/** One broken rule, named by its field and code, as the form shows it. */
export function problemErrors(l: Localizer, problem: { field: string; code: string }, situation: ErrorSituation = {}): FormErrors {
  const message = messageOf(l, problem, situation) ?? l.t.errors.unexpected;
  return { fields: { [problem.field]: message }, summary: [message] };
}

/** Every rule a record breaks (record-rules.ts), each at its field; the summary lists them all once. */
export function violationErrors(l: Localizer, violations: readonly RuleViolation[], situation: ErrorSituation): FormErrors {
  const fields: Record<string, string> = {};
  for (const violation of violations) fields[violation.field] ??= messageOf(l, violation, situation) ?? l.t.errors.unexpected;
  return { fields, summary: [...new Set(Object.values(fields))] };
}
