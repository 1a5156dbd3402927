/** Variant R input (value, SRV as priority/weight/port/target) turned into a record draft. */
import type { components } from "../../../generated/types/full.js";
import { apiErrors } from "../../platform/errors.js";
import { canonicalHostName } from "./record-content.js";
import type { RecordDraft } from "./record-rules.js";
import { toRecordR } from "./record-shapes.js";
import type { DnsRecordRow } from "./record-store.js";

type Schemas = components["schemas"];

/** The Variant R fields of a record, as a create body or a record merged with a patch. */
export interface RecordRFields {
  type: Schemas["DnsRecordType"];
  name: string;
  value: string;
  ttl: number;
  priority?: number | null;
  weight?: number | null;
  port?: number | null;
  target?: string | null;
}

const unprocessable = (field: string, code: string, messages: string[]) =>
  apiErrors.invalidValues(messages.map((message) => ({ field, code, message })));

export function draftFromR(fields: RecordRFields): RecordDraft {
  const { type, name, value, ttl } = fields;
  const priority = fields.priority ?? null;
  if (type !== "SRV") {
    const srvOnly = (["weight", "port", "target"] as const).filter((key) => fields[key] !== undefined && fields[key] !== null);
    if (srvOnly.length > 0)
      throw unprocessable(
        srvOnly[0]!,
        "invalid_value",
        srvOnly.map((key) => `${key} is only used by SRV records`),
      );
    return { type, name, content: value, ttl, priority };
  }
  const missing = (["priority", "weight", "port"] as const).filter((key) => fields[key] === undefined || fields[key] === null);
  if (missing.length > 0)
    throw unprocessable(
      missing[0]!,
      "missing_required_field",
      missing.map((key) => `${key} is required for SRV records`),
    );
  const target = fields.target ?? value;
  // One host in two spellings (case, the root's dot) is still one host.
  if (canonicalHostName(target) !== canonicalHostName(value))
    throw unprocessable("target", "invalid_value", ["target must equal value for SRV records"]);
  return { type, name, content: `${priority} ${fields.weight} ${fields.port} ${target}`, ttl, priority };
}

/**
 * A PATCH merged over the stored record. When the type changes, fields of the old type that the
 * new one does not use are dropped rather than refused.
 */
export function mergeRPatch(record: DnsRecordRow, patch: Schemas["DnsRecordRUpdate"]): RecordRFields {
  const current = toRecordR(record);
  const typeChanged = patch.type !== undefined && patch.type !== current.type;
  const base: RecordRFields = typeChanged
    ? { type: patch.type!, name: current.name, value: current.value, ttl: current.ttl }
    : {
        type: current.type,
        name: current.name,
        value: current.value,
        ttl: current.ttl,
        priority: current.priority,
        weight: current.weight,
        port: current.port,
        target: current.target,
      };
  const merged: RecordRFields = { ...base };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  // A new value of an SRV record is its new target.
  if (merged.type === "SRV" && patch.value !== undefined && patch.target === undefined) merged.target = patch.value;
  // HTTPS and SVCB carry their priority in value: a new value brings its own.
  if ((merged.type === "HTTPS" || merged.type === "SVCB") && patch.value !== undefined && patch.priority === undefined)
    merged.priority = null;
  return merged;
}
