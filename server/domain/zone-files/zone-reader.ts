/**
 * Reads a master file (RFC 1035 5) into the service's records, skips and problems, entry by entry:
 * a bad entry is reported with its line and the rest still read, and nothing throws, so an import
 * can answer for every line at once.
 */
import type { ReadZone, ZoneFileProblem, ZoneFileProblemCode, ZoneFileRecord, ZoneFileSkip } from "./zone-file.js";
import { absoluteName, looksLikeTtl, readTtl, relativeOwner } from "./zone-names.js";
import { MANAGED_TYPE_NUMBERS, readRdata } from "./zone-rdata.js";
import { lexZoneFile, type ZoneEntry, type ZoneToken } from "./zone-tokens.js";
import { DEFAULT_TTL } from "../dns/default-ttl.js";

/** A zone file larger than this is refused whole: reading part of it would make a replace delete the rest. */
export const MAX_ZONE_FILE_CHARACTERS = 1_048_576;
export const MAX_ZONE_FILE_LINES = 50_000;
/** The TTL of a record when the file states none before it (BIND would refuse the file): Variant D's default. */
const UNSTATED_TTL = DEFAULT_TTL.D;

const MANAGED_TYPES: ReadonlySet<string> = new Set(Object.keys(MANAGED_TYPE_NUMBERS));
const TYPE_BY_NUMBER = new Map(Object.entries(MANAGED_TYPE_NUMBERS).map(([type, code]) => [code, type]));
const CLASS = /^(?:IN|CH|CS|HS|NONE|ANY|CLASS\d{1,5})$/i;
const TYPE_TOKEN = /^[A-Za-z][A-Za-z0-9-]*$/;

const UNSUPPORTED_MESSAGES: Readonly<Record<string, string>> = {
  SPF: "SPF records (type 99) are obsolete (RFC 7208 3.1): publish the policy as a TXT record",
  // cli53 writes Route 53's alias records with AWS where the class goes.
  AWS: "Route 53 alias records (AWS ALIAS) are not DNS records: give the target as an ALIAS at the apex, or a CNAME, A or AAAA record",
};

interface ReaderState {
  domain: string;
  serviceNameservers: ReadonlySet<string>;
  origin: string;
  /** $TTL, which RFC 2308 makes the default of every record without its own. */
  zoneTtl: number | null;
  /** The last TTL a record stated (or the SOA's minimum), which BIND gives a record when no $TTL is set. */
  lastTtl: number | null;
  /** The previous entry's owner (absolute), or why there is none to inherit. */
  owner: { name: string } | { problem: string };
}

/** What one entry gives: a record, a skip, a problem, or nothing (a directive that only changes the state). */
type EntryOutcome = { record: ZoneFileRecord } | { skip: ZoneFileSkip } | { problem: ZoneFileProblem } | null;

const problemAt = (line: number, code: ZoneFileProblemCode, message: string): EntryOutcome => ({ problem: { line, code, message } });

function readDirective(state: ReaderState, entry: ZoneEntry): EntryOutcome {
  const [directive, ...args] = entry.tokens;
  const keyword = directive!.text.toUpperCase();
  switch (keyword) {
    case "$ORIGIN": {
      const reading = args.length === 1 ? absoluteName(args[0]!.text, state.origin) : null;
      if (reading === null) return problemAt(entry.line, "syntax_error", "$ORIGIN takes one domain name");
      if ("problem" in reading) return problemAt(entry.line, "invalid_name", reading.problem);
      // Kept even outside the domain, so that each record relative to it is refused on its own line.
      state.origin = reading.name === "." ? "" : reading.name;
      // An ancestor (BIND writes `$ORIGIN .` and full names) still leads to names in the zone.
      const ancestor = reading.name === "." || state.domain.endsWith(`.${reading.name}`);
      if (ancestor || relativeOwner(reading.name, state.domain) !== null) return null;
      return problemAt(entry.line, "outside_zone", `$ORIGIN ${reading.name} is not ${state.domain} or a name under it`);
    }
    case "$TTL": {
      const ttl = args.length === 1 ? readTtl(args[0]!.text) : null;
      if (ttl === null) return problemAt(entry.line, "invalid_ttl", "$TTL takes one TTL: seconds (0 to 2147483647) or units such as 1h30m");
      state.zoneTtl = ttl;
      return null;
    }
    case "$INCLUDE":
      return problemAt(entry.line, "include_not_supported", "$INCLUDE is not supported: put the included records into this file");
    case "$GENERATE":
      return problemAt(entry.line, "include_not_supported", "$GENERATE is not supported: write out the records it would generate");
    default:
      return problemAt(entry.line, "unknown_directive", `${directive!.text} is not a directive of a zone file`);
  }
}

/** The type named by a mnemonic or RFC 3597 `TYPEnnn`, upper case. */
function typeName(token: string): string {
  const upper = token.toUpperCase();
  const generic = /^TYPE(\d{1,5})$/.exec(upper);
  return generic ? (TYPE_BY_NUMBER.get(Number(generic[1])) ?? upper) : upper;
}

/** Owner, TTL and class (either order, both optional) and type of an entry, or the problem that stops it. */
function readHead(state: ReaderState, entry: ZoneEntry) {
  const tokens = entry.tokens;
  let index = 0;
  let owner: { name: string } | { problem: string };
  if (entry.blankOwner) owner = state.owner;
  else {
    owner = absoluteName(tokens[0]!.text, state.origin);
    state.owner = "problem" in owner ? { problem: `its owner (line ${entry.line}) was not read` } : owner;
    index = 1;
  }
  let ttl: number | null = null;
  let recordClass: string | null = null;
  for (let taken = 0; taken < 2; taken += 1) {
    const token = tokens[index];
    if (token === undefined || token.quoted) break;
    if (ttl === null && looksLikeTtl(token.text)) {
      ttl = readTtl(token.text);
      if (ttl === null)
        return {
          problem: {
            code: "invalid_ttl" as const,
            message: `${token.text} is not a TTL: seconds (0 to 2147483647) or units such as 1h30m`,
          },
        };
    } else if (recordClass === null && CLASS.test(token.text)) recordClass = token.text.toUpperCase();
    else break;
    index += 1;
  }
  const typeToken = tokens[index];
  if (typeToken === undefined || typeToken.quoted || !TYPE_TOKEN.test(typeToken.text)) {
    return { problem: { code: "syntax_error" as const, message: "a record needs a type after its owner, TTL and class" } };
  }
  if ("problem" in owner) {
    return {
      problem: {
        code: entry.blankOwner ? ("syntax_error" as const) : ("invalid_name" as const),
        message: entry.blankOwner ? `the record has no owner: ${owner.problem}` : owner.problem,
      },
    };
  }
  return { owner: owner.name, ttl, recordClass, type: typeName(typeToken.text), rdata: tokens.slice(index + 1) };
}

/** The SOA's MINIMUM field, the TTL BIND gives the SOA itself when nothing else states one. */
function soaMinimum(rdata: readonly ZoneToken[]): number | null {
  return rdata.length === 7 ? readTtl(rdata[6]!.text) : null;
}

function readRecord(state: ReaderState, entry: ZoneEntry): EntryOutcome {
  const head = readHead(state, entry);
  if ("problem" in head) return problemAt(entry.line, head.problem!.code, head.problem!.message);
  const { owner, type, rdata } = head;
  if (head.recordClass !== null && head.recordClass !== "IN" && head.recordClass !== "CLASS1") {
    return problemAt(entry.line, "unsupported_class", `class ${head.recordClass} is not served: only IN records are`);
  }
  if (head.ttl !== null) state.lastTtl = head.ttl;
  else if (state.zoneTtl === null && state.lastTtl === null && type === "SOA") state.lastTtl = soaMinimum(rdata);
  const ttl = head.ttl ?? state.zoneTtl ?? state.lastTtl ?? UNSTATED_TTL;
  const name = relativeOwner(owner, state.domain);
  if (name === null) return problemAt(entry.line, "outside_zone", `${owner} is not ${state.domain} or a name under it`);
  const skip = (reason: ZoneFileSkip["reason"], message: string): EntryOutcome => ({
    skip: { line: entry.line, name, type, reason, message },
  });
  if (type === "SOA") return skip("soa", "the service writes the zone's SOA record itself");
  if (!MANAGED_TYPES.has(type)) {
    return skip("unsupported_type", UNSUPPORTED_MESSAGES[type] ?? `the service does not manage ${type} records`);
  }
  const reading = readRdata(type, rdata, state.origin);
  if ("code" in reading) return problemAt(entry.line, reading.code, reading.message);
  if (type === "NS" && name === "@") {
    const message = state.serviceNameservers.has(reading.content)
      ? `${reading.content} is one of the service's nameservers, which it publishes itself`
      : `${reading.content} is not one of the service's nameservers: a domain's nameservers are set with the nameservers operation, not as records`;
    return skip("service_nameservers", message);
  }

  return {
    record: {
      line: entry.line,
      name,
      ttl,
      type,
      content: reading.content,
      priority: reading.priority,
    } satisfies ZoneFileRecord,
  };
}

const lowerName = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** Reads `text` as the zone of `domainName`; never throws. */
export function readZoneFile(text: string, domainName: string, serviceNameservers: readonly string[]): ReadZone {
  const domain = lowerName(domainName);
  const result: ReadZone = { origin: domain, records: [], skipped: [], problems: [] };
  try {
    if (text.length > MAX_ZONE_FILE_CHARACTERS || text.split("\n", MAX_ZONE_FILE_LINES + 1).length > MAX_ZONE_FILE_LINES) {
      result.problems.push({
        line: 1,
        code: "too_large",
        message: `a zone file must be at most ${MAX_ZONE_FILE_CHARACTERS} characters and ${MAX_ZONE_FILE_LINES} lines; nothing was read`,
      });
      return result;
    }
    const state: ReaderState = {
      domain,
      serviceNameservers: new Set(serviceNameservers.map(lowerName)),
      origin: domain,
      zoneTtl: null,
      lastTtl: null,
      owner: { problem: "no record before it names one" },
    };
    const lexing = lexZoneFile(text);
    for (const lexProblem of lexing.problems)
      result.problems.push({ line: lexProblem.line, code: "syntax_error", message: lexProblem.message });
    for (const entry of lexing.entries) {
      const first = entry.tokens[0]!;
      const outcome =
        !entry.blankOwner && !first.quoted && first.text.startsWith("$") ? readDirective(state, entry) : readRecord(state, entry);
      if (outcome === null) continue;
      if ("record" in outcome) result.records.push(outcome.record);
      else if ("skip" in outcome) result.skipped.push(outcome.skip);
      else result.problems.push(outcome.problem);
    }
    result.problems.sort((a, b) => a.line - b.line);
  } catch (error) {
    // A fault of the reader must not become a 500: it is answered as a problem of the file.
    result.problems.push({ line: 1, code: "syntax_error", message: `the zone file could not be read (${String(error)})` });
  }
  return result;
}
