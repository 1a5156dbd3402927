/**
 * Which addresses webhooks may be sent to (SSRF protection): only public ones in production; the
 * sandbox also allows loopback, so a partner can receive on its own machine. Private, link-local
 * (cloud metadata at 169.254.169.254) and other special ranges are refused everywhere.
 */
import { BlockList, isIP } from "node:net";
import type { Environment } from "../auth/api-keys.js";

const LOOPBACK: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["127.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"],
];

const NON_PUBLIC: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"],
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.0.2.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["198.51.100.0", 24, "ipv4"],
  ["203.0.113.0", 24, "ipv4"],
  ["224.0.0.0", 4, "ipv4"],
  ["240.0.0.0", 4, "ipv4"],
  ["::", 128, "ipv6"],
  ["64:ff9b::", 96, "ipv6"],
  ["100::", 64, "ipv6"],
  ["2001:db8::", 32, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["ff00::", 8, "ipv6"],
];

function blockList(ranges: Array<[string, number, "ipv4" | "ipv6"]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const REFUSED: Record<Environment, BlockList> = {
  production: blockList([...NON_PUBLIC, ...LOOPBACK]),
  sandbox: blockList(NON_PUBLIC),
};

/** `::ffff:10.0.0.1` is 10.0.0.1: judge the IPv4 address an IPv4-mapped IPv6 address carries. */
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export function isAllowedAddress(address: string, environment: Environment): boolean {
  const mapped = MAPPED_V4.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = isIP(ip);
  if (family === 0) return false;
  return !REFUSED[environment].check(ip, family === 4 ? "ipv4" : "ipv6");
}

/** Host names that always mean this machine, refused where loopback is. */
const isLocalHostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Why a URL may not receive webhooks, or null. Names that resolve are checked again on delivery. */
export function webhookUrlProblem(url: string, environment: Environment): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url must be an absolute http or https URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "url must use http or https";
  if (parsed.username || parsed.password) return "url must not carry credentials";
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host) !== 0 && !isAllowedAddress(host, environment)) return `url points at ${host}, an address webhooks are not sent to in ${environment}`;
  if (isLocalHostName(host) && environment === "production") return "url points at this machine; production sends webhooks to public addresses only";
  return null;
}
