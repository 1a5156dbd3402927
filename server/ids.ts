/** Identifiers issued by the service: a type prefix and 24 random base62 characters (about 143 bits). */
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The largest multiple of 62 a byte holds: bytes from here on are dropped, so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/**
 * Uniform base62 from the system's CSPRNG. One read of random bytes per string rather than a
 * `randomInt` per character: every request gets an id, and twenty calls per id showed in profiles.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // 248 of 256 byte values are kept; a few spare bytes make a second read rare.
    for (const byte of randomBytes(length - out.length + 8)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = "dom" | "rec" | "trf" | "evt" | "whe" | "whd";

export const newId = (prefix: IdPrefix) => `${prefix}_${randomBase62(24)}`;
