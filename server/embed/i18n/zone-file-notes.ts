/**
 * What each line of a zone file import does, in the user's words: the reason a line is skipped or
 * refused. The import names a code (the reader's, a record rule's, a conflict with the zone, the
 * partner's lock); a record rule's code alone does not say which field broke it, so the record is
 * read again from the file and checked with the record form's own rules, for the same sentences.
 */
import type { ZoneImportLine } from "../../domain/zone-files/zone-transfer.js";
import type { ZoneFileRecord } from "../../domain/zone-files/zone-file.js";
import { dnsLimits } from "../../../generated/operations.js";
import { recordViolations, type RecordDraft, type RecordType } from "../../domain/dns/record-rules.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { conflictMessage, violationErrors } from "./form-errors.js";
import type { Localizer } from "./localizer.js";
import type { Messages } from "./messages-en.js";
import { isRecordType } from "../../domain/dns/record-content.js";

type ProblemCode = Exclude<keyof Messages["zoneFiles"]["problems"], "record_locked" | "unknown">;

const READER_CODES = new Set<string>([
  "syntax_error",
  "include_not_supported",
  "unknown_directive",
  "outside_zone",
  "unsupported_class",
  "invalid_ttl",
  "invalid_rdata",
  "invalid_name",
  "too_large",
] satisfies ProblemCode[]);

const CONFLICT_CODES = new Set(["duplicate_record", "cname_conflict", "spf_conflict", "dmarc_conflict", "alias_conflict"]);

export interface NoteContext {
  l: Localizer;
  domain: DomainRow;
  partnerName: string;
  /** The records of the file by line, as the reader read them. */
  recordsByLine: ReadonlyMap<number, ZoneFileRecord>;
}

/** Why a skipped line is left out. */
function skipNote({ l, partnerName }: NoteContext, line: ZoneImportLine): string {
  const { reasons } = l.t.zoneFiles;
  switch (line.code) {
    case "soa":
      return reasons.soa;
    case "service_nameservers":
      return reasons.service_nameservers;
    case "unsupported_type":
      return reasons.unsupported_type(line.type);
    case "record_locked":
      return reasons.locked(partnerName);
    case "duplicate_record":
      return reasons.duplicate;
    default:
      return l.t.zoneFiles.problems.unknown;
  }
}

/** Every rule the line's record breaks, in the record form's sentences; null when it breaks none of them. */
function ruleNote({ l, domain, recordsByLine }: NoteContext, line: ZoneImportLine): string | null {
  const read = recordsByLine.get(line.line);
  if (!read || !isRecordType(read.type)) return null;
  const draft: RecordDraft = { type: read.type, name: read.name, content: read.content, ttl: read.ttl, priority: read.priority };
  const violations = recordViolations(draft, domain.name);
  if (violations.length === 0) return null;
  return violationErrors(l, violations, { domain, record: draft }).summary.join(" ");
}

/** Why a refused line cannot be imported. */
function refusalNote(context: NoteContext, line: ZoneImportLine): string {
  const { l, partnerName } = context;
  const { problems } = l.t.zoneFiles;
  const code = line.code ?? "";
  if (READER_CODES.has(code)) return problems[code as ProblemCode];
  if (code === "record_locked") return problems.record_locked(partnerName);
  if (code === "record_limit_exceeded") return l.t.errors.recordLimit(l.number(dnsLimits.records_per_domain));
  if (CONFLICT_CODES.has(code) && isRecordType(line.type))
    return conflictMessage(l, code as Parameters<typeof conflictMessage>[1], { type: line.type, name: line.name });
  return ruleNote(context, line) ?? problems.unknown;
}

/** The note of a line of the preview: why it is skipped or refused, the lock that keeps it; else nothing. */
export function lineNote(context: NoteContext, line: ZoneImportLine): string | null {
  if (line.action === "skip") return skipNote(context, line);
  if (line.action === "refuse") return refusalNote(context, line);
  if (line.code === "record_locked") return context.l.t.zoneFiles.reasons.locked(context.partnerName);
  return null;
}
