/**
 * Who may frame the embedded interface: each partner lists the origins of its application, and pages
 * answer with `Content-Security-Policy: frame-ancestors` naming exactly those (CSP Level 2; X-Frame-Options
 * cannot name several origins, and browsers that know frame-ancestors ignore it).
 */
import { parse } from "tldts";

/** Plain http is allowed only on loopback addresses, for local development and the demo. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * CSP allows a leading wildcard label: a partner serving each customer on its own subdomain. The
 * parent it names (captured) must then be a partner's own, not a public suffix (`isPublicSuffix`).
 */
const WILDCARD_ORIGIN = /^https:\/\/\*\.((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9-]*[a-z][a-z0-9-]*)(?::\d{1,5})?$/;
/** A host name of letters, digits and hyphens, or a bracketed IPv6 address: what CSP's host-source matches. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/;

/**
 * An origin a partner configured, in the serialized form CSP compares (`https://app.example.com`,
 * default port dropped); throws on anything else, so no value can smuggle a directive into the header.
 */
export function parseEmbedOrigin(value: string): string {
  const text = value.trim().toLowerCase().replace(/\/$/, "");
  const wildcardParent = WILDCARD_ORIGIN.exec(text)?.[1];
  if (wildcardParent !== undefined) {
    if (isPublicSuffix(wildcardParent))
      throw new Error(
        `embed origin ${JSON.stringify(value)} is a wildcard over the public suffix ${wildcardParent}, whose names belong to anyone: name a domain of yours, such as https://*.app.${wildcardParent}`,
      );
    return text;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`embed origin ${JSON.stringify(value)} is not an origin such as https://app.example.com`);
  }
  const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && !text.endsWith("/");
  if (!bare || url.origin === "null" || !HOST.test(url.hostname))
    throw new Error(`embed origin ${JSON.stringify(value)} must be scheme://host[:port] only`);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new Error(`embed origin ${JSON.stringify(value)} must use https (http only on localhost, 127.0.0.1, [::1])`);
  }
  return url.origin;
}

/**
 * Whether a name is a public suffix (`co.uk`, `github.io`): one under which anyone may register or be
 * given a name, so a wildcard over it would let every site there frame the interface. By the Public
 * Suffix List, its ICANN and private sections both (tldts bundles the list: nothing is fetched); a
 * name outside every rule counts as a top-level domain, as the list's algorithm says.
 */
const isPublicSuffix = (name: string) => parse(name, { allowPrivateDomains: true }).domain === null;

/** The CSP directive for a set of origins; none configured means nothing may frame the page. */
export function frameAncestors(origins: readonly string[]): string {
  return `frame-ancestors ${origins.length > 0 ? origins.join(" ") : "'none'"}`;
}
