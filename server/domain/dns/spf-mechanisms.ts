/**
 * The SPF mechanisms a template may put before its own `~all` (RFC 7208 section 5): directives
 * that only add senders. `all` and the modifiers would end or divert the policy the template
 * closes, `ptr` must not be published (5.5), and macros are left out so a domain is a plain name.
 */
import { isIPv4, isIPv6 } from "node:net";
import { isHostName } from "./record-content.js";

/** RFC 7208 4.6.4: a check may cost at most 10 DNS lookups. */
const MAX_LOOKUPS = 10;

/** `name[:value][/prefix][//prefix6]`, the shape of every mechanism (RFC 7208 section 12). */
const MECHANISM = /^([a-z][a-z0-9]*)(?::([^/]+))?(?:\/(\d{1,3}))?(?:\/\/(\d{1,3}))?$/i;

// SPF domains name TXT records such as _spf.google.com: a label may begin with an underscore.
const isSpfDomain = (domain: string) => isHostName(domain.replace(/(^|\.)_/g, "$1"));
// RFC 7208 section 12: a CIDR length has no leading zero.
const isPrefixUpTo = (max: number, prefix: string | undefined) =>
  prefix === undefined || (/^(0|[1-9]\d*)$/.test(prefix) && Number(prefix) <= max);

/** Whether a mechanism (without its qualifier) is allowed, and whether it costs a DNS lookup. */
function classify(mechanism: string): "lookup" | "no-lookup" | "refused" {
  const match = MECHANISM.exec(mechanism);
  if (!match) return "refused";
  const [, name, value, prefix, prefix6] = match;
  switch (name!.toLowerCase()) {
    case "a":
    case "mx":
      return (value === undefined || isSpfDomain(value)) && isPrefixUpTo(32, prefix) && isPrefixUpTo(128, prefix6) ? "lookup" : "refused";
    case "include":
    case "exists":
      return value !== undefined && isSpfDomain(value) && prefix === undefined && prefix6 === undefined ? "lookup" : "refused";
    case "ip4":
      return value !== undefined && isIPv4(value) && isPrefixUpTo(32, prefix) && prefix6 === undefined ? "no-lookup" : "refused";
    case "ip6":
      return value !== undefined && isIPv6(value) && isPrefixUpTo(128, prefix) && prefix6 === undefined ? "no-lookup" : "refused";
    default:
      return "refused";
  }
}

/** Whether `text` is one or more allowed mechanisms, each with an optional qualifier, separated by single spaces. */
export function isSpfMechanisms(text: string): boolean {
  const kinds = text.split(" ").map((term) => classify(term.replace(/^[+\-~?]/, "")));
  return !kinds.includes("refused") && kinds.filter((kind) => kind === "lookup").length <= MAX_LOOKUPS;
}
