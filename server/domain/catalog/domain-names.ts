/** Validation and normalisation of domain names given by callers (availability, purchases, transfers). */
import { toASCII, toUnicode } from "tr46";
import { apiErrors } from "../../platform/errors.js";
import { idna2008Refusal } from "./idna2008.js";
import { findTld, type TldPrice } from "./tlds.js";

export interface ParsedDomainName {
  /** Lower-case ASCII form (IDNs as xn-- labels). */
  name: string;
  /** The label before the TLD, e.g. "example" in example.com. */
  label: string;
  tld: TldPrice;
}

/**
 * UTS #46 as IDNA2008 registration wants it: nontransitional (ß stays ß), STD3 ASCII rules
 * (letters, digits, hyphens), the hyphen, joiner (RFC 5892 CONTEXTJ) and bidi (RFC 5893) checks,
 * and DNS lengths (labels of 1 to 63 octets, 253 in all).
 */
const UTS46 = { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true, transitionalProcessing: false } as const;

/**
 * Whether a label is acceptable where a name is written in ASCII (record names, host names in record
 * content): a label that begins xn-- claims to be an IDN, so it must be the A-label of a U-label
 * IDNA2008 allows (RFC 5891 5.4), not any string behind that prefix (xn--e28h is an emoji).
 */
export function isAcceptableAsciiLabel(label: string): boolean {
  const lower = label.toLowerCase();
  if (!lower.startsWith("xn--")) return true;
  const { domain, error } = toUnicode(lower, UTS46);
  return !error && !domain.includes(".") && toASCII(domain, UTS46) === lower && idna2008Refusal(domain) === null;
}

const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, "0");

/**
 * Normalises a name to lower-case ASCII (Unicode names become xn-- labels, as registries store them,
 * so both spellings are one name), checks it is valid under IDNA2008 and a second-level name under
 * a TLD the service sells; 422 otherwise.
 */
export function parseDomainName(input: string, field: string): ParsedDomainName {
  const notADomainName = () => apiErrors.invalidValue(field, "invalid_format", `${field} must be a domain name such as example.com`);
  const ascii = toASCII(input.trim().replace(/\.$/, ""), { ...UTS46, verifyDNSLength: true });
  if (ascii === null) throw notADomainName();
  for (const uLabel of toUnicode(ascii, UTS46).domain.split(".")) {
    const refusal = idna2008Refusal(uLabel);
    if (!refusal) continue;
    const shown = `"${refusal.character}" (U+${hex(refusal.codePoint)})`;
    throw apiErrors.invalidValue(
      field,
      "invalid_format",
      refusal.kind === "disallowed"
        ? `${field} must not contain ${shown}: IDNA2008 (RFC 5892) allows letters, marks and digits in domain names, not symbols or punctuation`
        : `${field} has ${shown} where IDNA2008 (RFC 5892 appendix A) does not allow it`,
    );
  }
  const labels = ascii.split(".");
  if (labels.length !== 2) throw notADomainName();
  const [label, tldName] = labels as [string, string];
  const tld = findTld(tldName);
  if (!tld) throw apiErrors.invalidValue(field, "invalid_value", `The TLD .${tldName} is not offered`);
  return { name: ascii, label, tld };
}
