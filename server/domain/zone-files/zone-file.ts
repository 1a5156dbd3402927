/**
 * Zone files (RFC 1035 section 5 master files) in and out of the service's record terms.
 * The reader turns text into records, skips and problems and never throws; the writer is
 * deterministic so an export of an unchanged store is byte-identical.
 */

/** One resource record read from a zone file, in the service's terms. */
export interface ZoneFileRecord {
  /** 1-based line where the record starts (its first line when parentheses continue it). */
  line: number;
  /** Owner relative to the domain: "@" for the apex, else lower-case labels without the domain, no trailing dot. */
  name: string;
  /** Explicit TTL, else the last $TTL, else the previous record's TTL (BIND's rules), else the SOA minimum. */
  ttl: number;
  /** Upper case, e.g. "A", "MX", "SOA". */
  type: string;
  /** RDATA in the service's stored content form (Variant D `content`); MX/SRV priority is in `priority`. */
  content: string;
  priority: number | null;
}

/**
 * - `soa`: the service writes its own SOA;
 * - `service_nameservers`: an apex NS: the service publishes its own nameservers itself, and a domain's other
 *   nameservers are set with the nameservers operation, not as records (the message says which case it is);
 * - `unsupported_type`: a type the service does not manage (PTR, NAPTR, SSHFP, DNAME, SPF, ...).
 */
export type ZoneFileSkipReason = "soa" | "service_nameservers" | "unsupported_type";

export interface ZoneFileSkip {
  line: number;
  name: string;
  type: string;
  reason: ZoneFileSkipReason;
  message: string;
}

/**
 * Codes:
 * - `syntax_error`: an entry that is not a resource record or directive (unbalanced parentheses or quotes, no type, no owner, ...);
 * - `include_not_supported`: `$INCLUDE` (the service reads one file, never another path) and `$GENERATE` (a BIND
 *   extension that makes records from a pattern; write them out);
 * - `unknown_directive`: another `$` directive;
 * - `outside_zone`: an owner that is not the domain or under it, or an `$ORIGIN` that is neither that nor an
 *   ancestor of the domain (BIND writes `$ORIGIN .`);
 * - `unsupported_class`: a class other than IN;
 * - `invalid_ttl`: a TTL that is not a number or BIND unit form in 0..2147483647;
 * - `invalid_rdata`: RDATA that does not fit its type's syntax (field count, numbers, escapes);
 * - `invalid_name`: an owner or target that is not a domain name (empty label, label over 63 bytes, name over 255);
 * - `too_large`: the input exceeds the reader's size or line bound; nothing after the bound is read.
 */
export interface ZoneFileProblem {
  line: number;
  code: ZoneFileProblemCode;
  message: string;
}

export type ZoneFileProblemCode =
  | "syntax_error"
  | "include_not_supported"
  | "unknown_directive"
  | "outside_zone"
  | "unsupported_class"
  | "invalid_ttl"
  | "invalid_rdata"
  | "invalid_name"
  | "too_large";

export interface ReadZone {
  /** The domain, lower case, without trailing dot. */
  origin: string;
  records: ZoneFileRecord[];
  skipped: ZoneFileSkip[];
  problems: ZoneFileProblem[];
}

/** The narrow record shape the writer needs (DnsRecordRow has these fields). */
export interface ZoneRecordInput {
  name: string;
  type: string;
  content: string;
  ttl: number;
  priority: number | null;
}

export interface ZoneExportOptions {
  nameservers: readonly string[];
  serial: number;
  defaultTtl: number;
  /** The SOA RNAME as a mailbox (`hostmaster@example.net`) or a domain name (`hostmaster.example.net`). */
  hostmaster: string;
}

export { readZoneFile } from "./zone-reader.js";
export { writeZoneFile } from "./zone-writer.js";
