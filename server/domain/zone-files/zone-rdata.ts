/**
 * RDATA of the types the service manages, from master-file tokens into the service's content form
 * (Variant D `content`: targets absolute without the trailing dot, MX preference in `priority`,
 * SRV/HTTPS/SVCB priority both first in content and in `priority`). Only syntax is checked here:
 * the service's record rules judge the values.
 */
import type { ZoneToken } from "./zone-tokens.js";
import { absoluteName, characterString, unescapeBytes } from "./zone-names.js";
import { writeTxt } from "../dns/record-content.js";
import type { RecordType } from "../dns/record-rules.js";

export type RdataReading = { content: string; priority: number | null } | { code: "invalid_rdata" | "invalid_name"; message: string };

/** PowerDNS's number for its ALIAS type, which the writer uses to export ALIAS in RFC 3597 form. */
export const ALIAS_TYPE_NUMBER = 65401;

/** The managed types' numbers (IANA "Resource Record (RR) TYPEs"), for RFC 3597 `TYPEnnn` spellings. */
export const MANAGED_TYPE_NUMBERS: Readonly<Record<RecordType, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  TLSA: 52,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
  ALIAS: ALIAS_TYPE_NUMBER,
};

const bad = (type: string, form: string): RdataReading => ({ code: "invalid_rdata", message: `${type} data must be ${form}` });

const number = (token: ZoneToken | undefined, max: number) =>
  token !== undefined && !token.quoted && /^\d{1,10}$/.test(token.text) && Number(token.text) <= max ? Number(token.text) : null;

/** A target name: absolute, lower case, no trailing dot; "." for the root. */
function target(token: ZoneToken | undefined, origin: string): { name: string } | RdataReading {
  if (token === undefined) return { code: "invalid_rdata", message: "a target name is missing" };
  const reading = absoluteName(token.text, origin);
  return "problem" in reading ? { code: "invalid_name", message: reading.problem } : reading;
}

const isReading = (value: object): value is RdataReading => "code" in value || "content" in value;

function readTxt(tokens: readonly ZoneToken[]): RdataReading {
  if (tokens.length === 0) return bad("TXT", "one or more character-strings");
  const strings: string[] = [];
  for (const token of tokens) {
    const bytes = unescapeBytes(token.text);
    if (bytes !== null && bytes.length > 255) return bad("TXT", "character-strings of at most 255 bytes each");
    const text = characterString(token.text);
    if (text === null) return bad("TXT", "character-strings with well-formed escapes, in UTF-8");
    strings.push(text);
  }
  return { content: writeTxt(strings), priority: null };
}

/** SVCB parameters: a key and its value may be split by the quotes (`alpn="h2,h3"` lexes as `alpn=` and `h2,h3`). */
function svcbParams(tokens: readonly ZoneToken[]): string[] | null {
  const terms: string[] = [];
  for (const token of tokens) {
    const text = characterString(token.text);
    if (text === null) return null;
    if (token.joined && terms.length > 0) terms[terms.length - 1] += text;
    else terms.push(text);
  }
  return terms.map((term) => (/\s/.test(term) ? term.replace(/^([^=]*=)(.*)$/s, '$1"$2"') : term));
}

function readSvcbRdata(type: "HTTPS" | "SVCB", tokens: readonly ZoneToken[], origin: string): RdataReading {
  const priority = number(tokens[0], 65535);
  if (priority === null || tokens.length < 2) return bad(type, "a priority (0 to 65535), a target name and parameters");
  const host = target(tokens[1], origin);
  if (isReading(host)) return host;
  const params = svcbParams(tokens.slice(2));
  if (params === null) return bad(type, "parameters with well-formed escapes");
  return { content: [String(priority), host.name, ...params].join(" "), priority };
}

function readCaaRdata(tokens: readonly ZoneToken[]): RdataReading {
  const flags = number(tokens[0], 255);
  const tag = tokens[1];
  const value = tokens[2] === undefined ? null : characterString(tokens[2].text);
  if (flags === null || tag === undefined || tag.quoted || !/^[A-Za-z0-9]+$/.test(tag.text) || value === null || tokens.length !== 3) {
    return bad("CAA", 'flags (0 to 255), a tag and a value, such as 0 issue "letsencrypt.org"');
  }
  return { content: `${flags} ${tag.text.toLowerCase()} "${value}"`, priority: null };
}

function readTlsaRdata(tokens: readonly ZoneToken[]): RdataReading {
  const fields = tokens.slice(0, 3).map((token) => number(token, 255));
  const data = tokens
    .slice(3)
    .map((token) => token.text)
    .join("");
  if (fields.some((field) => field === null) || !/^[0-9A-Fa-f]+$/.test(data)) {
    return bad("TLSA", "usage, selector and matching type (numbers) and the data in hexadecimal");
  }
  return { content: `${fields.join(" ")} ${data.toLowerCase()}`, priority: null };
}

/** RFC 3597 generic RDATA (`\# length hex`): its bytes, or null when the length does not match. */
function genericBytes(tokens: readonly ZoneToken[]): Uint8Array | null {
  const length = number(tokens[1], 65535);
  const hex = tokens
    .slice(2)
    .map((token) => token.text)
    .join("");
  if (length === null || !/^(?:[0-9A-Fa-f]{2})*$/.test(hex) || hex.length !== length * 2) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** An uncompressed wire-format name (RFC 1035 3.1) as text, each byte outside letters, digits, `-`, `_` and `*` escaped. */
function wireName(bytes: Uint8Array, start: number): { name: string; end: number } | null {
  const labels: string[] = [];
  let position = start;
  while (position < bytes.length) {
    const length = bytes[position]!;
    if (length === 0) return { name: labels.length === 0 ? "." : `${labels.join(".")}.`, end: position + 1 };
    if (length > 63 || position + 1 + length > bytes.length) return null;
    const label = [...bytes.subarray(position + 1, position + 1 + length)]
      .map((byte) => (/[A-Za-z0-9_*-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, "0")}`))
      .join("");
    labels.push(label);
    position += 1 + length;
  }
  return null;
}

function readGeneric(type: string, tokens: readonly ZoneToken[], origin: string): RdataReading {
  const bytes = genericBytes(tokens);
  if (bytes === null) return bad(type, "RFC 3597 generic data whose length matches its hexadecimal bytes");
  const nameAt = (start: number) => {
    const name = wireName(bytes, start);
    return name !== null && name.end === bytes.length ? target({ text: name.name, quoted: false, joined: false }, origin) : null;
  };
  switch (type) {
    case "A":
      return bytes.length === 4 ? { content: [...bytes].join("."), priority: null } : bad(type, "4 bytes in generic form");
    case "AAAA": {
      if (bytes.length !== 16) return bad(type, "16 bytes in generic form");
      const groups = Array.from({ length: 8 }, (_, index) => ((bytes[index * 2]! << 8) | bytes[index * 2 + 1]!).toString(16));
      return { content: groups.join(":"), priority: null };
    }
    case "CNAME":
    case "NS":
    case "ALIAS": {
      const name = nameAt(0);
      if (name === null) return bad(type, "one uncompressed name in generic form");
      return isReading(name) ? name : { content: name.name, priority: null };
    }
    case "MX": {
      const name = bytes.length < 3 ? null : nameAt(2);
      if (name === null) return bad(type, "a preference and an uncompressed name in generic form");
      return isReading(name) ? name : { content: name.name, priority: (bytes[0]! << 8) | bytes[1]! };
    }
    case "TXT": {
      const strings: string[] = [];
      for (let position = 0; position < bytes.length; ) {
        const length = bytes[position]!;
        if (position + 1 + length > bytes.length) return bad(type, "length-prefixed strings in generic form");
        try {
          strings.push(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(position + 1, position + 1 + length)));
        } catch {
          return bad(type, "UTF-8 text");
        }
        position += 1 + length;
      }
      return strings.length === 0 ? bad(type, "at least one string") : { content: writeTxt(strings), priority: null };
    }
    default:
      return { code: "invalid_rdata", message: `${type} data is read in its text form only, not in RFC 3597 generic form` };
  }
}

/** The RDATA tokens of a managed type (upper case) read against the current origin. */
export function readRdata(type: string, tokens: readonly ZoneToken[], origin: string): RdataReading {
  if (tokens[0]?.text === "\\#" && !tokens[0].quoted) return readGeneric(type, tokens, origin);
  switch (type) {
    case "A":
    case "AAAA":
      return tokens.length === 1 && !tokens[0]!.quoted ? { content: tokens[0]!.text, priority: null } : bad(type, "one address");
    case "CNAME":
    case "NS":
    case "ALIAS": {
      if (tokens.length !== 1) return bad(type, "one name");
      const host = target(tokens[0], origin);
      return isReading(host) ? host : { content: host.name, priority: null };
    }
    case "MX": {
      const preference = number(tokens[0], 65535);
      if (preference === null || tokens.length !== 2) return bad(type, "a preference (0 to 65535) and a mail server's name");
      const host = target(tokens[1], origin);
      return isReading(host) ? host : { content: host.name, priority: preference };
    }
    case "SRV": {
      const fields = tokens.slice(0, 3).map((token) => number(token, 65535));
      if (fields.some((field) => field === null) || tokens.length !== 4)
        return bad(type, "priority, weight and port (0 to 65535) and a target");
      const host = target(tokens[3], origin);
      return isReading(host) ? host : { content: `${fields.join(" ")} ${host.name}`, priority: fields[0]! };
    }
    case "TXT":
      return readTxt(tokens);
    case "CAA":
      return readCaaRdata(tokens);
    case "HTTPS":
    case "SVCB":
      return readSvcbRdata(type, tokens, origin);
    case "TLSA":
      return readTlsaRdata(tokens);
    default:
      return { code: "invalid_rdata", message: `${type} records are not managed by the service` };
  }
}
