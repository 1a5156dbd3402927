import { isoTimestamp } from "./clock.js";

/**
 * Member names as JSON text. Rows have a few dozen names in all, quoted on every entity tag; the
 * cache stops growing at its bound, so the names of arbitrary request bodies (idempotency
 * fingerprints) cannot grow it.
 */
const quotedNames = new Map<string, string>();
const MAX_QUOTED_NAMES = 1024;

function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (quotedNames.size < MAX_QUOTED_NAMES) quotedNames.set(name, quoted);
  }
  return quoted;
}

/**
 * JSON with object members in code-point order of their names and dates as ISO text: two values
 * that are the same JSON value, however their members were ordered, have one canonical text.
 *
 * Every entity tag of a read is this text of a stored row, hashed (server/platform/entity-tags.ts),
 * so it is written as loops appending to one string, with names quoted once: the version built of
 * entries, filter, sort, map and join allocated a dozen arrays and closures per object and was the
 * largest cost of our own code in a profile of the domain read (bench/results/profiles/).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (value === null) return "null";
  if (value instanceof Date) return `"${isoTimestamp(value)}"`;
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + canonicalJson(value[i]);
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  // The default order compares UTF-16 code units, as the comparison of names always did here.
  const names = Object.keys(object).sort();
  let text = "{";
  let first = true;
  for (const name of names) {
    const member = object[name];
    if (member === undefined) continue;
    text += `${first ? "" : ","}${quotedName(name)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${text}}`;
}
