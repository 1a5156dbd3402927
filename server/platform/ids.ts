/** Identifiers issued by the service: a type prefix and 24 random base62 characters (about 143 bits). */
import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The largest multiple of 62 a byte holds: bytes from here on are dropped, so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/**
 * Random bytes read from the system's CSPRNG 4 KiB at a time, as Node's own randomUUID and
 * randomInt keep a cache: every request gets an id, and a read per id (a system call) or a
 * randomInt per character showed in CPU profiles. A byte is handed out once, never reused.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Uniform base62 characters: bytes of 248 and above are dropped rather than folded (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
  }
  return out;
}

export type IdPrefix = "dom" | "rec" | "trf" | "tro" | "evt" | "whe" | "whd" | "chg" | "key" | "ptn" | "mem";

export const newId = (prefix: IdPrefix) => `${prefix}_${randomBase62(24)}`;
