/**
 * Writes a domain's records as a master file (RFC 1035 5) that BIND loads: `$ORIGIN`, `$TTL`, the
 * SOA and the service's apex NS, then the records in the order given, one per line, owners
 * relative to the origin, targets absolute. The same records and options always give the same text.
 */
import type { ZoneExportOptions, ZoneRecordInput } from "./zone-file.js";
import { ALIAS_TYPE_NUMBER } from "./zone-rdata.js";
import { txtStrings } from "../dns/record-content.js";

/** SOA timers (RIPE-203's recommendations); the service's secondaries, if any, are not configured from them. */
const SOA_REFRESH = 86400;
const SOA_RETRY = 7200;
const SOA_EXPIRE = 3600000;
/** The negative-caching TTL (RFC 2308 4). */
const SOA_MINIMUM = 3600;
const MAX_CHARACTER_STRING = 255;

const encoder = new TextEncoder();
const PLAIN_NAME_CHARACTER = /^[A-Za-z0-9_*-]$/;

/** A byte of a name or string in master-file text: printable ASCII as itself (specials after `\`), else `\DDD`. */
function escapedByte(byte: number, plain: (char: string) => boolean): string {
  const char = String.fromCharCode(byte);
  if (byte > 0x20 && byte < 0x7f) return plain(char) ? char : `\\${char}`;
  return `\\${String(byte).padStart(3, "0")}`;
}

const escapedLabel = (label: string) =>
  [...encoder.encode(label)].map((byte) => escapedByte(byte, (char) => PLAIN_NAME_CHARACTER.test(char))).join("");

/** An owner relative to the origin: `@` for the apex. */
const ownerText = (name: string) => (name === "@" || name === "" ? "@" : name.split(".").map(escapedLabel).join("."));

/** A target as an absolute name, so that it never reads as relative to the origin. */
const absoluteText = (name: string) => {
  const bare = name.replace(/\.$/, "");
  return bare === "" ? "." : `${bare.split(".").map(escapedLabel).join(".")}.`;
};

/** Splits text into strings of at most 255 UTF-8 bytes without cutting a character. */
function byteChunks(text: string): Uint8Array[] {
  const bytes = encoder.encode(text);
  if (bytes.length <= MAX_CHARACTER_STRING) return [bytes];
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + MAX_CHARACTER_STRING, bytes.length);
    // A UTF-8 continuation byte (10xxxxxx) must stay with the character it continues.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

const quotedBytes = (bytes: Uint8Array) =>
  `"${[...bytes].map((byte) => (byte === 0x20 ? " " : escapedByte(byte, (char) => char !== '"' && char !== "\\"))).join("")}"`;

const quoted = (text: string) => quotedBytes(encoder.encode(text));

/** The RFC 3597 generic form of a name: PowerDNS's ALIAS type is unknown to BIND, which loads it this way. */
function genericName(name: string): string {
  const labels = name
    .replace(/\.$/, "")
    .split(".")
    .filter((label) => label !== "");
  const bytes = labels.flatMap((label) => {
    const encoded = [...encoder.encode(label)];
    return [encoded.length, ...encoded];
  });
  bytes.push(0);
  return `\\# ${bytes.length} ${bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** A record's type and RDATA columns. */
function typeAndRdata(record: ZoneRecordInput): [string, string] {
  const parts = record.content.trim().split(/\s+/);
  switch (record.type) {
    case "CNAME":
    case "NS":
      return [record.type, absoluteText(record.content)];
    case "MX":
      return ["MX", `${record.priority ?? 0} ${absoluteText(record.content)}`];
    case "SRV":
      return ["SRV", [...parts.slice(0, 3), absoluteText(parts[3] ?? ".")].join(" ")];
    case "HTTPS":
    case "SVCB":
      return [record.type, [parts[0], absoluteText(parts[1] ?? "."), ...parts.slice(2)].join(" ")];
    case "TXT":
      return ["TXT", txtStrings(record.content).flatMap(byteChunks).map(quotedBytes).join(" ")];
    case "CAA": {
      const caa = /^(\d+)\s+(\S+)\s+"(.*)"$/s.exec(record.content.trim());
      return ["CAA", caa ? `${caa[1]} ${caa[2]} ${quoted(caa[3]!)}` : record.content];
    }
    case "ALIAS":
      return [`TYPE${ALIAS_TYPE_NUMBER}`, `${genericName(record.content)} ; ALIAS ${absoluteText(record.content)}`];
    default:
      return [record.type, record.content];
  }
}

/** The SOA RNAME: a mailbox's local part becomes the first label, its dots escaped (RFC 1035 8). */
function hostmasterName(hostmaster: string): string {
  const at = hostmaster.lastIndexOf("@");
  if (at < 0) return absoluteText(hostmaster);
  const local = [...encoder.encode(hostmaster.slice(0, at))]
    .map((byte) => escapedByte(byte, (char) => PLAIN_NAME_CHARACTER.test(char)))
    .join("");
  return `${local}.${absoluteText(hostmaster.slice(at + 1))}`;
}

const line = (owner: string, ttl: number, type: string, rdata: string) => `${owner}\t${ttl}\tIN\t${type}\t${rdata}`;

/** The zone of `domainName` as master-file text. */
export function writeZoneFile(domainName: string, records: readonly ZoneRecordInput[], options: ZoneExportOptions): string {
  const origin = absoluteText(domainName.toLowerCase());
  const nameservers = options.nameservers.map((server) => absoluteText(server.toLowerCase()));
  const primary = nameservers[0] ?? origin;
  const soa = [primary, hostmasterName(options.hostmaster), options.serial, SOA_REFRESH, SOA_RETRY, SOA_EXPIRE, SOA_MINIMUM].join(" ");
  const lines = [`$ORIGIN ${origin}`, `$TTL ${options.defaultTtl}`, line("@", options.defaultTtl, "SOA", soa)];
  for (const server of nameservers) lines.push(line("@", options.defaultTtl, "NS", server));
  for (const record of records) {
    const [type, rdata] = typeAndRdata(record);
    // The service's own apex NS are written above, once.
    if (type === "NS" && ownerText(record.name) === "@" && nameservers.includes(rdata)) continue;
    lines.push(line(ownerText(record.name), record.ttl, type, rdata));
  }
  return `${lines.join("\n")}\n`;
}
