/**
 * The types of template variables (`type` of each variable in x-dns-templates): what a value
 * must be before it is put into a record, so it fills only its own place there.
 */
import { isIPv4 } from "node:net";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import { apiErrors } from "../../platform/errors.js";
import { isHostName } from "./record-content.js";
import { isSpfMechanisms } from "./spf-mechanisms.js";

export type TemplateVariableType = "hostname" | "ipv4" | "email" | "spf_mechanisms" | "text";

export interface TemplateVariableSpec {
  type: TemplateVariableType;
  required: boolean;
  default?: string;
  enum?: readonly string[];
  pattern?: string;
  max_length?: number;
}

// The catalogue as the server reads it: a variable of a type this module does not know fails to compile.
const catalogue: Record<DnsTemplateId, { variables: Record<string, TemplateVariableSpec> }> = dnsTemplates;

export const variablesOf = (templateId: DnsTemplateId): Readonly<Record<string, TemplateVariableSpec>> => catalogue[templateId].variables;

// Stricter than RFC 5322 on purpose: the address goes into a DMARC rua `mailto:` URI, where
// `,` `!` `;` `%` and spaces have meanings (RFC 7489 6.4, RFC 6068 2).
const EMAIL_LOCAL_PART = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*$/;
function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  const local = value.slice(0, at);
  return at > 0 && value.length <= 254 && local.length <= 64 && EMAIL_LOCAL_PART.test(local) && isHostName(value.slice(at + 1));
}

const TYPES: Record<TemplateVariableType, { accepts: (value: string) => boolean; expected: string }> = {
  hostname: { accepts: isHostName, expected: "a host name (labels of letters, digits and hyphens, e.g. mail.example.com)" },
  ipv4: { accepts: isIPv4, expected: "an IPv4 address in dotted-quad form" },
  email: {
    accepts: isEmail,
    expected: "an e-mail address: letters, digits, dots, underscores, plus signs and hyphens before the @, a host name after it",
  },
  spf_mechanisms: {
    accepts: isSpfMechanisms,
    expected:
      "SPF mechanisms separated by single spaces (a, mx, include:, exists:, ip4:, ip6:, each with an optional qualifier; no all, ptr or modifiers; at most 10 DNS lookups)",
  },
  text: { accepts: () => true, expected: "text" },
};

/** 422 naming the variable when the value is not of its type, outside its enum, over its length or off its pattern. */
export function assertVariableValue(templateId: DnsTemplateId, name: string, spec: TemplateVariableSpec, value: string): void {
  const refuse = (code: string, rule: string) =>
    apiErrors.invalidValue(`variables.${name}`, code, `Template ${templateId}: ${name} must be ${rule}`);
  if (spec.enum && !spec.enum.includes(value)) throw refuse("invalid_value", `one of ${spec.enum.join(", ")}`);
  if (spec.max_length !== undefined && value.length > spec.max_length) throw refuse("too_long", `at most ${spec.max_length} characters`);
  const type = TYPES[spec.type];
  if (!type.accepts(value)) throw refuse("invalid_format", type.expected);
  if (spec.pattern !== undefined && !new RegExp(spec.pattern).test(value)) throw refuse("invalid_format", `text matching ${spec.pattern}`);
}
