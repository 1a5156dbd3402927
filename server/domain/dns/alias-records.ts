/**
 * The zone rules of ALIAS (the spec's "Record types for websites"): the service answers an apex
 * ALIAS with the A and AAAA records of its target, so the apex holds one ALIAS and no A or AAAA
 * of its own, which the flattened answer would mix with.
 */
import type { DnsRecordRow } from "./record-store.js";

type RecordType = DnsRecordRow["type"];

const FLATTENED_INTO: ReadonlySet<RecordType> = new Set(["A", "AAAA"]);

/** Why `type` cannot join the records `atName` already at its name (its own name), or null. */
export function aliasConflict(type: RecordType, atName: ReadonlyArray<{ type: RecordType }>): string | null {
  if (type === "ALIAS") {
    if (atName.some((other) => other.type === "ALIAS")) return "The root already has an ALIAS record; change it instead of adding another";
    if (atName.some((other) => FLATTENED_INTO.has(other.type))) {
      return "An ALIAS record cannot share the root with A or AAAA records: it is answered with its target's addresses";
    }
  } else if (FLATTENED_INTO.has(type) && atName.some((other) => other.type === "ALIAS")) {
    return `The root has an ALIAS record, answered with its target's addresses; an ${type} record cannot be added beside it`;
  }
  return null;
}
