/** Expanding a template of the catalogue (x-dns-templates in the spec) into record drafts. */
import { DEFAULT_TTL } from "./default-ttl.js";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import { apiErrors } from "../../platform/errors.js";
import type { RecordDraft } from "./record-rules.js";
import { txtContentOf } from "./record-content.js";
import { assertVariableValue, variablesOf } from "./template-variables.js";

export function expandTemplate(templateId: DnsTemplateId, domainName: string, given: Record<string, string>): RecordDraft[] {
  const template = dnsTemplates[templateId];
  const specs = variablesOf(templateId);
  // Own keys only: `in` would take "constructor" or "__proto__" for variables of every template.
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(specs, name));
  if (unknown.length > 0) {
    throw apiErrors.invalidValue(
      `variables.${unknown[0]}`,
      "invalid_value",
      `Template ${templateId} has no variable ${unknown[0]}; its variables are: ${Object.keys(specs).join(", ") || "none"}`,
    );
  }
  const values: Record<string, string> = { domain: domainName };
  for (const [name, spec] of Object.entries(specs)) {
    const value = given[name] ?? spec.default;
    if (value === undefined)
      throw apiErrors.invalidValue(`variables.${name}`, "missing_required_field", `Template ${templateId} requires the variable ${name}`);
    assertVariableValue(templateId, name, spec, value);
    values[name] = value;
  }
  const substitute = (text: string) => text.replace(/%([a-z_]+)%/g, (_match, name: string) => values[name] ?? `%${name}%`);
  return template.records.map((record) => ({
    type: record.type,
    name: substitute(record.name),
    // A value its type allows can still make the text longer than one TXT string (a DMARC record of a long report address).
    content: record.type === "TXT" ? txtContentOf(substitute(record.content)) : substitute(record.content),
    ttl: DEFAULT_TTL.D,
    priority: "priority" in record ? record.priority : null,
  }));
}
