/**
 * Entity tags of users, domains and DNS records, and the If-Match check (the spec's "Concurrent
 * edits"). A tag is a hash of the stored row, every field of it: any change of the resource gives
 * a new tag, the same state the same tag on every store and instance, with nothing more to store.
 */
import { hash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import { apiErrors } from "./errors.js";

/** The strong entity tag of a stored row, quoted as the ETag header carries it. */
export function entityTag(row: object): string {
  // 128 bits: no two states of one resource share a tag by chance. One-shot hashing: a Hash object
  // per tag cost twice as much, and every read that answers an ETag makes one.
  return `"${hash("sha256", canonicalJson(row), "base64url").slice(0, 22)}"`;
}

/** One entity tag of an If-Match list (RFC 9110 8.8.3): optionally weak, then a quoted string. */
const LIST_ITEM = /^\s*(W\/)?("[\x21\x23-\x7E\x80-\xFF]*")\s*$/;

/**
 * What an If-Match header asks: any state (`*`), or one of the strong tags it lists. Weak tags are
 * kept out: If-Match compares strongly, so they never match. A header that is neither: 400.
 */
export function parseIfMatch(header: string): "*" | string[] {
  if (header.trim() === "*") return "*";
  const tags: string[] = [];
  for (const item of header.split(",")) {
    const match = LIST_ITEM.exec(item);
    if (!match) throw apiErrors.badRequest("If-Match", "invalid_format", 'If-Match must be "*" or a list of entity tags such as "abc123"');
    if (!match[1]) tags.push(match[2]!);
  }
  return tags;
}

/**
 * Refuses a write (412, with the current tag) unless If-Match, when sent, names the current state
 * of `row`. Called inside the write's transaction, after the row was read in it.
 */
export function assertIfMatch(ifMatch: string | undefined, row: object, what: string): void {
  if (ifMatch === undefined) return;
  const wanted = parseIfMatch(ifMatch);
  if (wanted === "*") return;
  const current = entityTag(row);
  if (!wanted.includes(current)) throw apiErrors.preconditionFailed(what, current);
}
