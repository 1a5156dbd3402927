/**
 * CAA content (RFC 8659): `flags tag "value"`, read and written in one spelling. Only the three
 * tags RFC 8659 defines are taken: a CA that meets another tag it does not know ignores it unless
 * the critical flag is set, so an unknown tag is a mistake a partner would want to hear of.
 */
import { canonicalHostName, isHostName } from "./host-names.js";

export type CaaTag = "issue" | "issuewild" | "iodef";

export interface CaaParts {
  flags: 0 | 128;
  tag: CaaTag;
  /** The value in its canonical spelling, without the quotes. */
  value: string;
}

export type CaaReading = { caa: CaaParts; canonical: string } | { problem: string };

const CAA_SHAPE = /^\s*(\d{1,3})\s+([A-Za-z0-9]+)\s+(?:"([^"\\]*)"|([^\s"\\]+))\s*$/;
const TAGS: readonly string[] = ["issue", "issuewild", "iodef"];
/** RFC 8659 4.2: parameter tags are letters and digits, values printable ASCII without `;` or space. */
const PARAMETER = /^([A-Za-z0-9]+)=([\x21-\x3a\x3c-\x7e]*)$/;

function issuerValue(value: string): string | null {
  const [issuer = "", ...parameters] = value.split(";").map((part) => part.trim());
  if (issuer !== "" && !isHostName(issuer)) return null;
  if (parameters.length === 0) return issuer === "" ? ";" : canonicalHostName(issuer);
  if (parameters.length === 1 && parameters[0] === "") return `${canonicalHostName(issuer)};`;
  if (!parameters.every((parameter) => PARAMETER.test(parameter))) return null;
  return `${issuer === "" ? "" : canonicalHostName(issuer)}; ${parameters.join("; ")}`;
}

function iodefValue(value: string): string | null {
  if (/^mailto:/i.test(value)) {
    const address = value.slice("mailto:".length);
    const at = address.lastIndexOf("@");
    if (at < 1 || !/^[A-Za-z0-9._%+-]+$/.test(address.slice(0, at)) || !isHostName(address.slice(at + 1))) return null;
    return `mailto:${address}`;
  }
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return null;
  const url = new URL(value);
  return isHostName(url.hostname) ? value : null;
}

export function readCaa(content: string): CaaReading {
  const shape = CAA_SHAPE.exec(content);
  if (!shape) return { problem: 'content must be \'flags tag "value"\' for CAA records, such as 0 issue "letsencrypt.org"' };
  const flags = Number(shape[1]);
  if (flags !== 0 && flags !== 128) {
    return { problem: "CAA flags must be 0 or 128 (issuer critical): RFC 8659 requires every other bit clear" };
  }
  const tag = shape[2]!.toLowerCase();
  if (!TAGS.includes(tag)) return { problem: "CAA tag must be issue, issuewild or iodef" };
  const raw = (shape[3] ?? shape[4])!.trim();
  const value = tag === "iodef" ? iodefValue(raw) : issuerValue(raw);
  if (value === null) {
    return {
      problem:
        tag === "iodef"
          ? "the value of a CAA iodef record must be a mailto: address or an https: or http: URL"
          : `the value of a CAA ${tag} record must be a CA's domain name, or empty (;), optionally followed by ; key=value parameters`,
    };
  }
  const caa: CaaParts = { flags, tag: tag as CaaTag, value };
  return { caa, canonical: `${flags} ${tag} "${value}"` };
}
