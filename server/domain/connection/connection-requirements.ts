/**
 * A partner's connection requirements: what a domain connected to its platform must have in its
 * DNS (GET/PUT /api/v1/connection_requirements, the dashboard's page). Checked whole before any is
 * stored, and kept in one spelling, so the check compares without reading them again.
 */
import type { components } from "../../../generated/types/full.js";
import type { FieldProblem } from "../../platform/errors.js";
import { canonicalHostName, isHostName } from "../dns/record-content.js";
import { canonicalIPv4, readIPv6 } from "../dns/ip-addresses.js";
import { canonicalName, isRecordName } from "../dns/record-rules.js";

export type ConnectionRequirement = components["schemas"]["ConnectionRequirement"];

/** The most a partner declares: a domain's check reads them all on every DNS write. */
export const MAX_REQUIREMENTS = 10;
export const MAX_APEX_ADDRESSES = 8;
export const MAX_TXT_VALUE = 255;
/** Printable ASCII without `"` and `\`, which TXT content reads as quoting. */
const TXT_VALUE = /^[ !#-[\]-~]+$/;

const FIELDS_OF_KIND: Record<ConnectionRequirement["kind"], ReadonlyArray<keyof ConnectionRequirement>> = {
  apex: ["addresses", "target"],
  www: ["target"],
  txt: ["name", "value"],
};
const ALL_FIELDS: ReadonlyArray<keyof ConnectionRequirement> = ["addresses", "target", "name", "value"];

/** An address in its one spelling, or null when it is neither IPv4 nor an IPv6 address of its own. */
export function canonicalAddress(text: string): { type: "A" | "AAAA"; address: string } | null {
  const v4 = canonicalIPv4(text);
  if (v4) return { type: "A", address: v4 };
  const v6 = readIPv6(text);
  return v6.kind === "address" ? { type: "AAAA", address: v6.canonical } : null;
}

/**
 * The requirements in their one spelling, or every rule they break. A fix is only as good as the
 * requirement it comes from, so nothing partial is kept.
 */
export function readRequirements(
  given: readonly ConnectionRequirement[],
): { requirements: ConnectionRequirement[]; problems?: never } | { requirements?: never; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const problem = (field: string, code: string, message: string) => problems.push({ field, code, message });
  if (given.length > MAX_REQUIREMENTS)
    problem("requirements", "too_many_requirements", `At most ${MAX_REQUIREMENTS} connection requirements may be declared`);
  const requirements: ConnectionRequirement[] = [];
  const seenKinds = new Set<string>();
  const txtNames = new Set<string>();
  given.forEach((requirement, index) => {
    const at = `requirements[${index}]`;
    const allowed = FIELDS_OF_KIND[requirement.kind];
    for (const field of ALL_FIELDS)
      if (requirement[field] !== undefined && !allowed.includes(field))
        problem(`${at}.${field}`, "not_allowed", `A requirement of kind ${requirement.kind} has no ${field}`);
    if (requirement.kind !== "txt") {
      if (seenKinds.has(requirement.kind))
        problem(`${at}.kind`, "duplicate_requirement", `Only one requirement of kind ${requirement.kind} may be declared`);
      seenKinds.add(requirement.kind);
    }
    if (requirement.kind === "apex") {
      if ((requirement.addresses === undefined) === (requirement.target === undefined))
        return problem(`${at}.addresses`, "required", "An apex requirement has either addresses or a target (an ALIAS), not both");
      if (requirement.addresses) {
        const addresses: string[] = [];
        requirement.addresses.forEach((text, position) => {
          const read = canonicalAddress(text);
          if (!read) return problem(`${at}.addresses[${position}]`, "invalid_address", `${text} is not an IPv4 or IPv6 address`);
          if (addresses.includes(read.address))
            return problem(`${at}.addresses[${position}]`, "duplicate_address", `${text} is given twice`);
          addresses.push(read.address);
        });
        if (addresses.length > MAX_APEX_ADDRESSES)
          problem(`${at}.addresses`, "too_many_addresses", `An apex requirement names at most ${MAX_APEX_ADDRESSES} addresses`);
        requirements.push({ kind: "apex", addresses });
        return;
      }
    }
    if (requirement.kind === "apex" || requirement.kind === "www") {
      const target = requirement.target;
      if (target === undefined) return problem(`${at}.target`, "required", `A ${requirement.kind} requirement has a target`);
      if (!isHostName(target)) return problem(`${at}.target`, "invalid_host_name", `${target} is not a host name of at least two labels`);
      requirements.push({ kind: requirement.kind, target: canonicalHostName(target) });
      return;
    }
    const { name, value } = requirement;
    if (name === undefined) return problem(`${at}.name`, "required", "A txt requirement has a name");
    if (value === undefined) return problem(`${at}.value`, "required", "A txt requirement has a value");
    if (!isRecordName(name) || name.startsWith("*"))
      return problem(`${at}.name`, "invalid_name", `${name} is not a record name a TXT requirement can have`);
    if (value.length > MAX_TXT_VALUE || !TXT_VALUE.test(value))
      return problem(`${at}.value`, "invalid_value", `A txt value is 1 to ${MAX_TXT_VALUE} printable ASCII characters without " and \\`);
    const canonical = canonicalName(name);
    if (txtNames.has(canonical))
      return problem(`${at}.name`, "duplicate_requirement", `Only one txt requirement may be declared at ${name}`);
    txtNames.add(canonical);
    requirements.push({ kind: "txt", name: canonical, value });
  });
  // A CNAME is alone at its name: a TXT there could never be satisfied with it.
  if (seenKinds.has("www") && txtNames.has("www")) {
    const index = given.findIndex((requirement) => requirement.kind === "txt" && requirement.name?.toLowerCase() === "www");
    problem(`requirements[${index}].name`, "conflicting_requirement", "A txt requirement at www conflicts with the www CNAME requirement");
  }
  return problems.length > 0 ? { problems } : { requirements };
}
