/** Validation and normalisation of domain names given by callers (availability, transfers). */
import { domainToASCII } from "node:url";
import { apiErrors } from "../errors.js";
import { findTld, type TldPrice } from "./tlds.js";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export interface ParsedDomainName {
  /** Lower-case ASCII form (IDNs as xn-- labels). */
  name: string;
  /** The label before the TLD, e.g. "example" in example.com. */
  label: string;
  tld: TldPrice;
}

/**
 * Normalises a name to lower-case ASCII (Unicode names become xn-- labels, as registries store them)
 * and checks it is a second-level name under a TLD the service sells; 422 otherwise.
 */
export function parseDomainName(input: string, field: string): ParsedDomainName {
  const ascii = domainToASCII(input.trim().replace(/\.$/, "").toLowerCase());
  const labels = ascii.split(".");
  if (ascii === "" || ascii.length > 253 || labels.length !== 2 || !labels.every((label) => LABEL.test(label))) {
    throw apiErrors.invalidValue(field, "invalid_format", `${field} must be a domain name such as example.com`);
  }
  const [label, tldName] = labels as [string, string];
  // RFC 5891: a hyphen in both the third and fourth position is reserved for xn-- labels.
  if (label.slice(2, 4) === "--" && !label.startsWith("xn--")) {
    throw apiErrors.invalidValue(field, "invalid_format", `${field} must not have "--" in the third and fourth position`);
  }
  const tld = findTld(tldName);
  if (!tld) throw apiErrors.invalidValue(field, "invalid_value", `The TLD .${tldName} is not offered`);
  return { name: ascii, label, tld };
}
