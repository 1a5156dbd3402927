/** Identifiers issued by the service: a type prefix and 24 random base62 characters (about 143 bits). */
import { randomInt } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export type IdPrefix = "dom" | "rec" | "trf" | "evt" | "whe" | "whd";

export const newId = (prefix: IdPrefix) => `${prefix}_${randomBase62(24)}`;
