/**
 * Where webhooks may be sent (SSRF protection), one policy for registration and for every delivery:
 * only public addresses in production; the sandbox also allows loopback, so a partner can receive
 * on its own machine. Private, link-local (cloud metadata at 169.254.169.254) and every other special
 * range are refused everywhere, in any spelling: ipaddr.js classifies the address, and the IPv6 forms
 * that carry an IPv4 address to where routing delivers them (mapped, compatible, NAT64, 6to4,
 * Teredo) are judged by that IPv4 address.
 */
import ipaddr from "ipaddr.js";
import type { Environment } from "../../../generated/deployment.js";

/** ipaddr.js names addresses in no special range `unicast`; anything else is not for a receiver. */
const ALLOWED_RANGES: Record<Environment, ReadonlySet<string>> = {
  production: new Set(["unicast"]),
  sandbox: new Set(["unicast", "loopback"]),
};

/** RFC 4291 2.4: IANA allocates global unicast from 2000::/3 only; the rest is unassigned or special. */
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
/** RFC 6052's well-known NAT64 prefix, which carries the IPv4 address in its last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 addresses an IPv6 address delivers to, when it is a form that carries them. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  switch (address.range() as string) {
    case "ipv4Mapped":
    case "rfc6145":
      return [ipv4Of(p[6], p[7])];
    case "rfc6052":
      // The local-use prefix 64:ff9b:1::/48 (RFC 8215) places the address by prefix length: judged as itself.
      return address.match(NAT64_WELL_KNOWN) ? [ipv4Of(p[6], p[7])] : [];
    case "6to4":
      return [ipv4Of(p[1], p[2])];
    case "teredo":
      // RFC 4380 4: the Teredo server, and the client's address with every bit inverted.
      return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    case "unicast":
      // IPv4-compatible (::a.b.c.d, RFC 4291 2.5.5.1, deprecated): still routed to the IPv4 address by some stacks.
      return p.slice(0, 6).every((part) => part === 0) ? [ipv4Of(p[6], p[7])] : [];
    default:
      return [];
  }
}

/** The range an address belongs to, as ipaddr.js names it; an IPv6 unicast address outside 2000::/3 is `reserved`. */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range() as string;
  if (address.kind() === "ipv6" && range === "unicast" && !address.match(GLOBAL_UNICAST)) return "reserved";
  return range;
}

/** Why webhooks may not go to this IP address in the environment (`127.0.0.1 (loopback)`), or null. */
export function addressProblem(text: string, environment: Environment): string | null {
  if (!ipaddr.isValid(text)) return `${text}, which is not an IP address`;
  const address = ipaddr.parse(text);
  const carried = address.kind() === "ipv6" ? carriedIPv4(address as ipaddr.IPv6) : [];
  if (carried.length === 0) {
    const range = rangeOf(address);
    return ALLOWED_RANGES[environment].has(range) ? null : `${text} (${range})`;
  }
  const refused = carried.find((ipv4) => !ALLOWED_RANGES[environment].has(rangeOf(ipv4)));
  return refused ? `${text}, which carries ${refused.toString()} (${rangeOf(refused)})` : null;
}

/** For the resolved addresses of a host name, checked on every delivery. */
export const isAllowedAddress = (address: string, environment: Environment) => addressProblem(address, environment) === null;

/**
 * Special-use names that resolve only inside a machine or a network, never to a public receiver:
 * RFC 6762 `.local` (mDNS), RFC 8375 `.home.arpa`, and ICANN's private-use `.internal`, where cloud
 * metadata services answer (metadata.google.internal, instance-data.ec2.internal). RFC 6761's
 * `localhost` is loopback and judged as loopback.
 */
const PRIVATE_USE_SUFFIXES = ["local", "home.arpa", "internal"];

const isUnder = (name: string, suffix: string) => name === suffix || name.endsWith(`.${suffix}`);

/** Why webhooks may not go to this host name, or null (what it resolves to is checked on delivery). */
function hostNameProblem(host: string, environment: Environment): string | null {
  // `localhost.` is `localhost`: DNS names are absolute, the trailing dot only says so.
  const name = host.replace(/\.+$/, "");
  if (isUnder(name, "localhost")) return ALLOWED_RANGES[environment].has("loopback") ? null : `${host}, a name of this machine (loopback)`;
  const privateUse = PRIVATE_USE_SUFFIXES.find((suffix) => isUnder(name, suffix));
  if (privateUse) return `${host}, a private-use name (.${privateUse}) no public receiver has`;
  // A name without a dot is looked up in the server's own search domains (GCE's `metadata`).
  if (!name.includes(".")) return `${host}, a single-label name that only the server's own network resolves`;
  return null;
}

export interface UrlRefusal {
  code: "invalid_value" | "invalid_port" | "non_public_address";
  message: string;
}

/** Why a URL may not receive webhooks, or null: at registration, and again before every delivery. */
export function webhookUrlProblem(url: string, environment: Environment): UrlRefusal | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { code: "invalid_value", message: "url must be an absolute http or https URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { code: "invalid_value", message: "url must use http or https" };
  if (parsed.username || parsed.password) return { code: "invalid_value", message: "url must not carry credentials" };
  if (parsed.port === "0")
    return { code: "invalid_port", message: "url names port 0, on which no receiver listens; give a port from 1 to 65535" };
  // The URL parser has already written every IPv4 spelling (127.1, 0x7f.0.0.1, 2130706433) as a dotted quad.
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const problem = ipaddr.isValid(host) ? addressProblem(host, environment) : hostNameProblem(host, environment);
  if (!problem) return null;
  const rule =
    environment === "production"
      ? "production sends webhooks to public addresses only"
      : "the sandbox sends webhooks to public addresses and loopback only";
  return { code: "non_public_address", message: `url points at ${problem}; ${rule}` };
}
