/** The addresses of A and AAAA records: read, classified and written in one spelling by ipaddr.js. */
import { isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/** A dotted quad in its one spelling, or null. Leading zeros are refused: inet_aton reads them as octal. */
export function canonicalIPv4(text: string): string | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text).toString() : null;
}

export type IPv6Reading =
  | { kind: "address"; canonical: string }
  | { kind: "not_an_address" }
  /** `%eth0`: RFC 4007 section 11, a zone names an interface of one host. */
  | { kind: "zone_index" }
  /** IPv4-mapped or IPv4-compatible: an IPv4 address in IPv6 spelling. */
  | { kind: "ipv4_address" };

const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("::"), 96];

/**
 * RFC 4291 2.5.5: IPv4-mapped (::ffff:0:0/96) and the deprecated IPv4-compatible (::/96) addresses
 * only carry an IPv4 address. `::` and `::1`, inside ::/96, are IPv6's own unspecified and loopback.
 */
function carriesIPv4(address: ipaddr.IPv6): boolean {
  if (address.range() === "ipv4Mapped") return true;
  return address.match(IPV4_COMPATIBLE) && address.range() !== "unspecified" && address.range() !== "loopback";
}

/**
 * The address with its dotted IPv4 tail, if any, written as two hex groups. ipaddr.js reads
 * `::a.b.c.d` as `::ffff:a.b.c.d` (its "deprecatedTransitional" form, added for
 * https://github.com/whitequark/ipaddr.js/issues/101) where RFC 4291 2.5.5.1 reads `::` followed by those 32 bits; given hex
 * only, it parses the 128 bits the text says. Delete once ipaddr.js reads `::a.b.c.d` as ::/96.
 */
function withHexTail(text: string): string {
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!tail) return text;
  const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
  return `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** An IPv6 address in RFC 5952 form (compressed, lower case), or why it cannot be an AAAA's. */
export function readIPv6(text: string): IPv6Reading {
  // node:net holds to RFC 4291's text forms; ipaddr.js also takes five-digit groups and octal or hex IPv4 tails.
  if (!isIPv6(text)) return { kind: "not_an_address" };
  if (text.includes("%")) return { kind: "zone_index" };
  const address = ipaddr.IPv6.parse(withHexTail(text));
  if (carriesIPv4(address)) return { kind: "ipv4_address" };
  return { kind: "address", canonical: address.toRFC5952String() };
}
