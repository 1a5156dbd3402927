/**
 * The content of a record, type by type: whether it has its type's form, and the one spelling it is
 * stored, compared and answered in (the spec's "Canonical form"), so that two spellings of one value
 * are one record whichever variant wrote them.
 */
import type { DnsRecordRow } from "./record-store.js";
import { canonicalIPv4, readIPv6 } from "./ip-addresses.js";
import { canonicalHostName, isHostName } from "./host-names.js";
import { readCaa, type CaaParts } from "./caa-content.js";
import { readSvcb, type SvcbParts } from "./svcb-content.js";
import { readTlsa, type TlsaParts } from "./tlsa-content.js";

export { canonicalHostName, isHostName };

type RecordType = DnsRecordRow["type"];

/**
 * Content read into its type's parts, with its canonical spelling: what the rules, the zone checks
 * and the store work on once a draft is parsed, so none of them reads the text again.
 */
export type ParsedContent =
  | { type: "A" | "AAAA" | "CNAME" | "MX" | "NS"; canonical: string }
  | { type: "SRV"; canonical: string; srv: SrvParts }
  | { type: "TXT"; canonical: string; strings: string[] }
  | { type: "ALIAS"; canonical: string }
  | { type: "CAA"; canonical: string; caa: CaaParts }
  | { type: "HTTPS" | "SVCB"; canonical: string; svcb: SvcbParts }
  | { type: "TLSA"; canonical: string; tlsa: TlsaParts };

export type ContentReading = ParsedContent | { problem: string };

const QUOTED_STRING = /"((?:[^"\\]|\\[\s\S])*)"/g;
const TXT_QUOTED = /^"(?:[^"\\]|\\[\s\S])*"(?:\s+"(?:[^"\\]|\\[\s\S])*")*$/;
const MAX_TXT_STRING = 255;

/** The strings of a TXT value: several double-quoted ones (`\` escapes the next character), or else the value as one string. */
export function txtStrings(content: string): string[] {
  if (!TXT_QUOTED.test(content)) return [content];
  return [...content.matchAll(QUOTED_STRING)].map((match) => match[1]!.replace(/\\([\s\S])/g, "$1"));
}

/** One string unquoted unless it would then read as something else (quoted strings, or nothing); else each string quoted. */
export function writeTxt(strings: readonly string[]): string {
  const only = strings.length === 1 ? strings[0]! : null;
  if (only !== null && only !== "" && !TXT_QUOTED.test(only)) return only;
  return strings.map((text) => `"${text.replace(/["\\]/g, "\\$&")}"`).join(" ");
}

export interface SrvParts {
  priority: number;
  weight: number;
  port: number;
  /** Canonical host name, or `.` for "no service" (RFC 2782). */
  target: string;
}

export function parseSrv(content: string): SrvParts | null {
  const parts = content.trim().split(/\s+/);
  if (parts.length !== 4) return null;
  const [priority, weight, port] = parts.slice(0, 3).map((part) => (/^\d{1,5}$/.test(part) ? Number(part) : NaN));
  const target = parts[3]!;
  if (![priority, weight, port].every((n) => n !== undefined && Number.isInteger(n) && n >= 0 && n <= 65535)) return null;
  if (target !== "." && !isHostName(target)) return null;
  return { priority: priority!, weight: weight!, port: port!, target: target === "." ? "." : canonicalHostName(target) };
}

const hostOf =
  (type: "CNAME" | "MX" | "NS", what: string) =>
  (content: string): ContentReading =>
    isHostName(content) ? { type, canonical: canonicalHostName(content) } : { problem: `content must be a valid ${what}` };

const READERS: Record<RecordType, (content: string) => ContentReading> = {
  A: (content) => {
    const canonical = canonicalIPv4(content);
    return canonical ? { type: "A", canonical } : { problem: "content must be a valid IPv4 address for A records" };
  },
  AAAA: (content) => {
    const reading = readIPv6(content);
    switch (reading.kind) {
      case "address":
        return { type: "AAAA", canonical: reading.canonical };
      case "zone_index":
        return {
          problem: "content must not carry a zone index (%...): it names a network interface of one host and means nothing in the DNS",
        };
      case "ipv4_address":
        return {
          problem:
            "content must be an IPv6 address: IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses carry an IPv4 address, which belongs in an A record",
        };
      case "not_an_address":
        return { problem: "content must be a valid IPv6 address for AAAA records" };
    }
  },
  CNAME: hostOf("CNAME", "domain name for CNAME records"),
  MX: hostOf("MX", "domain name for MX records"),
  NS: hostOf("NS", "host name for NS records"),
  SRV: (content) => {
    const srv = parseSrv(content);
    if (!srv) return { problem: "content must be 'priority weight port target' for SRV records, numbers 0 to 65535" };
    return { type: "SRV", canonical: `${srv.priority} ${srv.weight} ${srv.port} ${srv.target}`, srv };
  },
  TXT: (content) => {
    const strings = txtStrings(content);
    if (strings.some((text) => text.length > MAX_TXT_STRING)) {
      return { problem: `each TXT string must be at most ${MAX_TXT_STRING} characters; give longer text as several quoted strings` };
    }
    return { type: "TXT", canonical: writeTxt(strings), strings };
  },
  // A name ending in a number is an address written where its host belongs: flattening it would resolve nothing.
  ALIAS: (content) =>
    isHostName(content) && !/\.\d+\.?$/.test(content)
      ? { type: "ALIAS", canonical: canonicalHostName(content) }
      : { problem: "content must be a host name for ALIAS records, not an address (that belongs in an A or AAAA record)" },
  CAA: (content) => {
    const reading = readCaa(content);
    return "problem" in reading ? reading : { type: "CAA", ...reading };
  },
  HTTPS: (content) => {
    const reading = readSvcb(content, "HTTPS");
    return "problem" in reading ? reading : { type: "HTTPS", ...reading };
  },
  SVCB: (content) => {
    const reading = readSvcb(content, "SVCB");
    return "problem" in reading ? reading : { type: "SVCB", ...reading };
  },
  TLSA: (content) => {
    const reading = readTlsa(content);
    return "problem" in reading ? reading : { type: "TLSA", ...reading };
  },
};

/** Whether a type named in text (a zone file's, a form's) is one the service manages: one its rules read. */
export const isRecordType = (type: string): type is RecordType => Object.hasOwn(READERS, type);

/** The content read into its parts with its canonical spelling, or the rule it breaks (a message naming the field `content`). */
export const readContent = (type: RecordType, content: string): ContentReading => READERS[type](content);

/**
 * Text the service composes (a template's record) as TXT content: one string while it fits, else
 * strings of at most 255 characters, which receivers join (RFC 7208 3.3), in the quoted form a
 * partner would write them.
 */
export function txtContentOf(text: string): string {
  if (text.length <= MAX_TXT_STRING) return text;
  const strings: string[] = [];
  for (let start = 0; start < text.length; start += MAX_TXT_STRING) strings.push(text.slice(start, start + MAX_TXT_STRING));
  return writeTxt(strings);
}
