/**
 * Glue: the addresses the registry publishes for nameserver hosts under the domain itself, without
 * which resolvers could not reach those nameservers (they would have to ask them for their own address).
 */
import ipaddr from "ipaddr.js";
import { apiErrors } from "../../platform/errors.js";
import type { Environment } from "../../../generated/deployment.js";
import { canonicalIPv4, readIPv6 } from "../dns/ip-addresses.js";
import type { GlueRecordRow } from "./delegation-store.js";
import type { DomainServices } from "./domain-services.js";
import type { DomainRow } from "./domain-store.js";
import { domainDetail } from "./domain-views.js";
import { assertDelegationChangeable, isHostName, isInBailiwick, MAX_NAMESERVERS } from "./nameservers.js";

export const MAX_GLUE_ADDRESSES = 13;

/** The documentation ranges (RFC 5737, RFC 3849), accepted in the sandbox so that examples work. */
const DOCUMENTATION = ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32"].map((cidr) => ipaddr.parseCIDR(cidr));
/** RFC 4291 2.4: IANA allocates global unicast from 2000::/3 only. */
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** Whether a nameserver at this address could answer the internet: ipaddr.js names such addresses `unicast`. */
function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6, environment: Environment): boolean {
  if (environment === "sandbox" && DOCUMENTATION.some(([base, bits]) => address.kind() === base.kind() && address.match(base, bits)))
    return true;
  if (address.range() !== "unicast") return false;
  return address.kind() === "ipv4" || address.match(GLOBAL_UNICAST);
}

/** A host under the domain, in lower case; 422 otherwise. */
export function readGlueHost(text: string, domain: DomainRow): string {
  const host = text.toLowerCase().replace(/\.$/, "");
  if (!isHostName(host) || host === domain.name || !isInBailiwick(host, domain.name)) {
    throw apiErrors.invalidValue(
      "host",
      "invalid_value",
      `Glue is for host names under ${domain.name}, such as ns1.${domain.name}; ${text} is not one`,
    );
  }
  return host;
}

function readAddresses(field: "ipv4" | "ipv6", texts: readonly string[], environment: Environment): string[] {
  if (texts.length > MAX_GLUE_ADDRESSES)
    throw apiErrors.invalidValue(field, "out_of_range", `At most ${MAX_GLUE_ADDRESSES} ${field} addresses`);
  const seen = new Set<string>();
  return texts.map((text, index) => {
    const at = `${field}.${index}`;
    let canonical: string | null = null;
    if (field === "ipv4") canonical = canonicalIPv4(text);
    else {
      const reading = readIPv6(text);
      canonical = reading.kind === "address" ? reading.canonical : null;
    }
    if (canonical === null)
      throw apiErrors.invalidValue(at, "invalid_value", `${text} is not an ${field === "ipv4" ? "IPv4" : "IPv6"} address`);
    if (!isPublic(ipaddr.parse(canonical), environment)) {
      throw apiErrors.invalidValue(
        at,
        "non_public_address",
        `${text} is not a public address; a nameserver must be reachable from the internet`,
      );
    }
    if (seen.has(canonical)) throw apiErrors.invalidValue(at, "duplicate_address", `${text} is given twice`);
    seen.add(canonical);
    return canonical;
  });
}

/** Sets a host's glue, replacing its addresses; sends `domain.updated`. */
export async function setGlueRecord(
  services: DomainServices,
  domain: DomainRow,
  hostText: string,
  addresses: { ipv4?: readonly string[]; ipv6?: readonly string[] },
): Promise<GlueRecordRow> {
  assertDelegationChangeable(domain);
  const host = readGlueHost(hostText, domain);
  const environment = services.deployment.environment;
  const ipv4 = readAddresses("ipv4", addresses.ipv4 ?? [], environment);
  const ipv6 = readAddresses("ipv6", addresses.ipv6 ?? [], environment);
  if (ipv4.length + ipv6.length === 0)
    throw apiErrors.invalidValue("ipv4", "missing_required_field", "Give at least one address, IPv4 or IPv6");
  const { delegations } = services.store;
  const existing = await delegations.glueRecordsOf(domain.id);
  if (!existing.some((glue) => glue.host === host) && existing.length >= MAX_NAMESERVERS) {
    throw apiErrors.conflict(`A domain holds glue for at most ${MAX_NAMESERVERS} hosts`, {
      field: "host",
      code: "glue_limit_exceeded",
      limit: MAX_NAMESERVERS,
    });
  }
  const now = services.clock.now();
  const glue: GlueRecordRow = { domainId: domain.id, partnerId: domain.partnerId, host, ipv4, ipv6, updatedAt: now };
  await delegations.saveGlueRecord(glue);
  await touch(services, domain, now);
  return glue;
}

/** Removes a host's glue, unless the delegation in effect or pending uses the host; sends `domain.updated`. */
export async function removeGlueRecord(services: DomainServices, domain: DomainRow, hostText: string): Promise<void> {
  assertDelegationChangeable(domain);
  const host = readGlueHost(hostText, domain);
  const { delegations } = services.store;
  const pending = await delegations.pendingNameserverChange(domain.id);
  if (domain.nameservers.includes(host) || pending?.nameservers.includes(host)) {
    throw apiErrors.conflict(`${host} is one of the domain's nameservers; delegate elsewhere before removing its glue`, {
      field: "host",
      code: "glue_in_use",
    });
  }
  if (!(await delegations.deleteGlueRecord(domain.id, host))) throw apiErrors.notFound("Glue record", host);
  await touch(services, domain, services.clock.now());
}

/** A change of the domain's registry data: `updated_at` moves and `domain.updated` is sent, as for its settings. */
export async function touch(services: DomainServices, domain: DomainRow, now: Date): Promise<DomainRow> {
  const updated: DomainRow = { ...domain, updatedAt: now };
  await services.store.saveDomain(updated);
  services.outbox.emit(domain.partnerId, "domain.updated", { data: await domainDetail(services, updated) });
  return updated;
}
