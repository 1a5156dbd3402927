/**
 * Names, character-strings and TTLs of a master file (RFC 1035 5.1): `\X` is X itself, `\DDD` the
 * byte of that decimal value; a name is absolute when it ends in an unescaped dot, else relative to
 * the current origin; `@` is the origin.
 */
import { domainToASCII } from "node:url";

const encoder = new TextEncoder();

/** The bytes a token's text stands for, or null when an escape is malformed (`\DDD` over 255, `\1x`, a trailing `\`). */
export function unescapeBytes(text: string): Uint8Array | null {
  if (!text.includes("\\")) return encoder.encode(text);
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char !== "\\") {
      const code = char.codePointAt(0)!;
      if (code < 0x80) bytes.push(code);
      else {
        const whole = String.fromCodePoint(code);
        bytes.push(...encoder.encode(whole));
        index += whole.length - 1;
      }
      continue;
    }
    const next = text[index + 1];
    if (next === undefined) return null;
    if (/\d/.test(next)) {
      const digits = text.slice(index + 1, index + 4);
      if (!/^\d{3}$/.test(digits) || Number(digits) > 255) return null;
      bytes.push(Number(digits));
      index += 3;
      continue;
    }
    const whole = String.fromCodePoint(next.codePointAt(0)!);
    bytes.push(...encoder.encode(whole));
    index += whole.length;
  }
  return Uint8Array.from(bytes);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A character-string's text (its bytes read as UTF-8), or null when the escapes or the UTF-8 are malformed. */
export function characterString(text: string): string | null {
  const bytes = unescapeBytes(text);
  if (bytes === null) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export type NameReading = { name: string } | { problem: string };

const MAX_LABEL_BYTES = 63;
/** RFC 1035 3.1: 255 octets on the wire, length bytes and the root's zero included. */
const MAX_WIRE_BYTES = 255;

/** The labels of a name as written, split at unescaped dots; `absolute` when it ended in one. */
function splitLabels(text: string): { labels: string[]; absolute: boolean } {
  const labels: string[] = [];
  let label = "";
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === "\\") {
      label += text.slice(index, index + 2);
      index += 1;
    } else if (char === ".") {
      labels.push(label);
      label = "";
    } else label += char;
  }
  if (label !== "") labels.push(label);
  return { labels, absolute: text.endsWith(".") && !text.endsWith("\\.") };
}

/** One label in the service's spelling: lower case, a Unicode label in punycode; null when it cannot be one. */
function labelText(written: string): string | { problem: string } {
  const bytes = unescapeBytes(written);
  if (bytes === null) return { problem: `the label ${JSON.stringify(written)} has a malformed escape` };
  if (bytes.length === 0) return { problem: "a name must not have an empty label (two dots in a row)" };
  if (bytes.length > MAX_LABEL_BYTES) return { problem: `a label must be at most ${MAX_LABEL_BYTES} bytes` };
  if (bytes.includes(0x2e)) return { problem: "a label must not contain a dot: the service keeps names as dotted text" };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { problem: "a label must be ASCII or UTF-8" };
  }
  if ([...text].every((char) => char.charCodeAt(0) < 0x80)) return text.toLowerCase();
  const ascii = domainToASCII(text);
  return ascii === "" || ascii.includes(".")
    ? { problem: `the label ${JSON.stringify(text)} is not a valid internationalised label` }
    : ascii;
}

/**
 * A name token read against `origin` (lower case, no trailing dot, "" for the root): the absolute
 * name in the service's spelling (lower case, no trailing dot, "." for the root).
 */
export function absoluteName(written: string, origin: string): NameReading {
  if (written === "@") return { name: origin === "" ? "." : origin };
  if (written === ".") return { name: "." };
  const { labels, absolute } = splitLabels(written);
  const texts: string[] = [];
  for (const label of labels) {
    const text = labelText(label);
    if (typeof text !== "string") return text;
    texts.push(text);
  }
  if (!absolute && origin !== "") texts.push(origin);
  const name = texts.join(".");
  const wireBytes = name.split(".").reduce((sum, label) => sum + 1 + encoder.encode(label).length, 1);
  if (wireBytes > MAX_WIRE_BYTES) return { problem: `a name must be at most ${MAX_WIRE_BYTES} bytes on the wire (RFC 1035 3.1)` };
  return { name };
}

/** The owner relative to the domain ("@" for the apex), or null when it is not the domain or under it. */
export function relativeOwner(name: string, domainName: string): string | null {
  if (name === domainName) return "@";
  return name.endsWith(`.${domainName}`) ? name.slice(0, -domainName.length - 1) : null;
}

/** RFC 2181 8: a TTL is an unsigned 31-bit number. */
const MAX_TTL = 2147483647;
const UNIT_SECONDS: Readonly<Record<string, number>> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };

/** A TTL in seconds from `3600` or BIND's unit form (`1h30m`, `1W`), or null. */
export function readTtl(text: string): number | null {
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds <= MAX_TTL ? seconds : null;
  }
  if (!/^(?:\d+[wdhms])+$/i.test(text)) return null;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([wdhms])/gi)) seconds += Number(amount) * UNIT_SECONDS[unit!.toLowerCase()]!;
  return seconds <= MAX_TTL ? seconds : null;
}

/** A token that can only be meant as a TTL (it starts with a digit). */
export const looksLikeTtl = (text: string) => /^\d/.test(text);
