/**
 * What the zone file checks read of an exported master file: the kit reads it on its own (any
 * implementation's export, not the reference server's reader), just enough to count the records
 * of each name and type and to see the directives, comments, parentheses and quoted strings.
 */
import type { CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";

export interface ReadRecord {
  /** The owner relative to the origin, lower case: `@` for the apex. */
  owner: string;
  type: string;
  /** The RDATA's fields as written (quoted strings keep their quotes). */
  rdata: string[];
}

export interface ReadExport {
  origin: string | null;
  ttl: string | null;
  records: ReadRecord[];
}

const CLASSES = new Set(["IN", "CH", "HS", "CS"]);
const TTL = /^\d+[smhdw]?(\d+[smhdw])*$/i;

/** Fields of one entry: quoted strings whole, comments dropped, parentheses joining lines. */
function entries(text: string): Array<{ blankOwner: boolean; fields: string[] }> {
  const out: Array<{ blankOwner: boolean; fields: string[] }> = [];
  let fields: string[] = [];
  let depth = 0;
  let blankOwner = false;
  for (const line of text.split(/\r?\n/)) {
    if (depth === 0) {
      if (fields.length > 0) out.push({ blankOwner, fields });
      fields = [];
      blankOwner = /^[ \t]/.test(line);
    }
    for (const match of line.matchAll(/"(?:[^"\\]|\\.)*"|;.*$|[()]|[^\s()";]+/g)) {
      const token = match[0];
      if (token.startsWith(";")) break;
      if (token === "(") depth++;
      else if (token === ")") depth = Math.max(0, depth - 1);
      else fields.push(token);
    }
  }
  if (fields.length > 0) out.push({ blankOwner, fields });
  return out;
}

/** The records and directives of a master file, owners made relative to `domain`. */
export function readExport(text: string, domain: string): ReadExport {
  const result: ReadExport = { origin: null, ttl: null, records: [] };
  let owner = "@";
  for (const { blankOwner, fields } of entries(text)) {
    if (fields[0] === "$ORIGIN") result.origin = fields[1] ?? null;
    if (fields[0] === "$TTL") result.ttl = fields[1] ?? null;
    if (fields[0]!.startsWith("$")) continue;
    let at = 0;
    if (!blankOwner) owner = relative(fields[at++]!, domain);
    while (at < fields.length && (TTL.test(fields[at]!) || CLASSES.has(fields[at]!.toUpperCase()))) at++;
    const type = fields[at]?.toUpperCase();
    if (type) result.records.push({ owner, type, rdata: fields.slice(at + 1) });
  }
  return result;
}

function relative(name: string, domain: string): string {
  const lower = name.toLowerCase();
  if (lower === "@" || lower === `${domain}.`) return "@";
  if (lower.endsWith(`.${domain}.`)) return lower.slice(0, -domain.length - 2);
  return lower;
}

/** The bytes a quoted character-string stands for (RFC 1035 5.1: `\DDD` one byte, `\X` the character X). */
export function characterStringBytes(field: string): Uint8Array {
  const inner = field.replace(/^"|"$/g, "");
  const bytes: number[] = [];
  for (const match of inner.matchAll(/\\(\d{3})|\\([\s\S])|([\s\S])/gu)) {
    if (match[1] !== undefined) bytes.push(Number(match[1]));
    else bytes.push(...new TextEncoder().encode(match[2] ?? match[3]!));
  }
  return Uint8Array.from(bytes);
}

/** Counts of `owner type` pairs, to compare an export with the record list. */
export function countsByNameAndType(items: ReadonlyArray<{ owner: string; type: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { owner, type } of items) counts[`${owner} ${type}`] = (counts[`${owner} ${type}`] ?? 0) + 1;
  return counts;
}

export const exportZone = (context: CheckContext, domainId: string): Promise<CallResult> =>
  context.api.call("exportDomainZone", { path: { domain_id: domainId }, headers: { Accept: "text/dns" } });

export const importZone = (context: CheckContext, domainId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  context.api.call("importDomainZone", { path: { domain_id: domainId }, body, ...(headers ? { headers } : {}) });

/** `line action type owner` of each reported line, to compare a report with what the file asks. */
export const reportLines = (lines: ReadonlyArray<{ line: number; action: string; type: string; name: string }>) =>
  lines.map(({ line, action, type, name }) => `${line} ${action} ${type} ${name}`);
