/**
 * Whether a set of records satisfies a partner's connection requirements, and what to change when
 * not: pure, over the records as read (the domain's zone, or what simulated resolution answers),
 * so the API, the embedded interface and the re-evaluation after writes answer alike.
 */
import type { components } from "../../../generated/types/full.js";
import { canonicalHostName } from "../dns/record-content.js";
import { txtText } from "../dns/record-rules.js";
import type { DnsRecordRow } from "../dns/record-store.js";
import { canonicalAddress, type ConnectionRequirement } from "./connection-requirements.js";

type Schemas = components["schemas"];
export type ConnectionFix = Schemas["ConnectionFix"];
export type ConnectionRecord = Schemas["ConnectionRecord"];
export type ChangeSet = Schemas["DnsChangeSet"];

/** A record as the check reads it: one of the zone's (with its id), or one resolved elsewhere (id null). */
export type CheckedRecord = Pick<DnsRecordRow, "type" | "name" | "content"> & { id: string | null; ttl?: number };

export interface RequirementResult {
  requirement: ConnectionRequirement;
  satisfied: boolean;
  found: ConnectionRecord[];
  fixes: ConnectionFix[];
}

const APEX = "@";
const WWW = "www";

const asFound = (record: CheckedRecord): ConnectionRecord => ({
  id: record.id,
  type: record.type,
  name: record.name,
  content: record.content,
  value: record.content,
});

const fixRecord = (type: DnsRecordRow["type"], name: string, content: string, ttl: number): NonNullable<ConnectionFix["record"]> => ({
  type,
  name,
  content,
  value: content,
  ttl,
});

/** What a record's content says in the spelling requirements are kept in. */
function contentKey(record: CheckedRecord): string {
  if (record.type === "A" || record.type === "AAAA") return canonicalAddress(record.content)?.address ?? record.content;
  if (record.type === "TXT") return txtText(record.content);
  return canonicalHostName(record.content);
}

/**
 * The apex's A and AAAA records must be exactly the addresses: an old address beside them splits
 * the traffic. A record of the wrong address is updated to a missing one of its type, so the fix
 * changes as few records as it can; an ALIAS or CNAME at the apex would answer instead, and goes.
 */
function apexAddresses(addresses: readonly string[], atApex: CheckedRecord[], ttl: number): ConnectionFix[] {
  const wanted = addresses.map((text) => canonicalAddress(text)!);
  const present = new Set(atApex.filter((r) => r.type === "A" || r.type === "AAAA").map(contentKey));
  const missing = wanted.filter((want) => !present.has(want.address));
  const fixes: ConnectionFix[] = [];
  for (const record of atApex) {
    const isAddress = record.type === "A" || record.type === "AAAA";
    if (isAddress && wanted.some((want) => want.address === contentKey(record))) continue;
    const replacement = isAddress ? missing.findIndex((want) => want.type === record.type) : -1;
    if (replacement >= 0 && record.id !== null) {
      const [want] = missing.splice(replacement, 1);
      fixes.push({ action: "update", record_id: record.id, record: fixRecord(record.type, APEX, want!.address, record.ttl ?? ttl) });
    } else fixes.push({ action: "delete", record_id: record.id, record: null });
  }
  for (const want of missing) fixes.push({ action: "create", record_id: null, record: fixRecord(want.type, APEX, want.address, ttl) });
  return fixes;
}

/**
 * One record of `type` at `name` pointing at `target`, and nothing else of `there`: the first
 * record of the type is updated to the target, the others go.
 */
function aloneTo(type: "ALIAS" | "CNAME", name: string, target: string, there: CheckedRecord[], ttl: number): ConnectionFix[] {
  const own = there.find((record) => record.type === type);
  const fixes: ConnectionFix[] = [];
  for (const record of there) {
    if (record !== own) fixes.push({ action: "delete", record_id: record.id, record: null });
    else if (contentKey(record) !== target)
      fixes.push({ action: "update", record_id: record.id, record: fixRecord(type, name, target, record.ttl ?? ttl) });
  }
  if (!own) fixes.push({ action: "create", record_id: null, record: fixRecord(type, name, target, ttl) });
  return fixes;
}

/** The records that satisfy a requirement on their own: what a DNS host the service does not run must answer. */
export function recordsWanted(requirement: ConnectionRequirement, ttl: number): ConnectionFix[] {
  const create = (type: DnsRecordRow["type"], name: string, content: string): ConnectionFix => ({
    action: "create",
    record_id: null,
    record: fixRecord(type, name, content, ttl),
  });
  if (requirement.kind === "apex" && requirement.addresses)
    return requirement.addresses.map((text) => canonicalAddress(text)!).map((want) => create(want.type, APEX, want.address));
  if (requirement.kind === "apex") return [create("ALIAS", APEX, requirement.target!)];
  if (requirement.kind === "www") return [create("CNAME", WWW, requirement.target!)];
  return [create("TXT", requirement.name!, requirement.value!)];
}

/** The records a requirement reads, and the changes that satisfy it (none when it is). */
export function checkRequirement(requirement: ConnectionRequirement, records: readonly CheckedRecord[], ttl: number): RequirementResult {
  const at = (name: string) => records.filter((record) => record.name.toLowerCase() === name);
  let found: CheckedRecord[];
  let fixes: ConnectionFix[];
  switch (requirement.kind) {
    case "apex": {
      found = at(APEX).filter((r) => r.type === "A" || r.type === "AAAA" || r.type === "ALIAS" || r.type === "CNAME");
      fixes = requirement.addresses
        ? apexAddresses(requirement.addresses, found, ttl)
        : aloneTo("ALIAS", APEX, requirement.target!, found, ttl);
      break;
    }
    case "www": {
      // Whatever else is at www shares the name with the CNAME, which the zone refuses.
      found = at(WWW);
      fixes = aloneTo("CNAME", WWW, requirement.target!, found, ttl);
      break;
    }
    case "txt": {
      found = at(requirement.name!).filter((r) => r.type === "TXT");
      fixes = found.some((record) => contentKey(record) === requirement.value)
        ? []
        : [{ action: "create", record_id: null, record: fixRecord("TXT", requirement.name!, requirement.value!, ttl) }];
      break;
    }
  }
  return { requirement, satisfied: fixes.length === 0, found: found.map(asFound), fixes };
}

/**
 * Every fix as one change set for POST .../dns/changes, deletes first (a CNAME needs its name to
 * itself before it is created); null when nothing is to change. Fixes of records found elsewhere
 * (no id) are not the zone's to apply, and make no change set.
 */
export function fixesAsChangeSet(results: readonly RequirementResult[]): ChangeSet | null {
  const fixes = results.flatMap((result) => result.fixes);
  if (fixes.length === 0 || fixes.some((fix) => fix.action !== "create" && fix.record_id === null)) return null;
  const deleted = new Set<string>();
  const deletes: NonNullable<ChangeSet["deletes"]> = [];
  const updates: NonNullable<ChangeSet["updates"]> = [];
  const creates: NonNullable<ChangeSet["creates"]> = [];
  for (const fix of fixes) {
    if (fix.action === "delete" && !deleted.has(fix.record_id!)) {
      deleted.add(fix.record_id!);
      deletes.push({ id: fix.record_id! });
    }
    if (fix.action === "update") updates.push({ id: fix.record_id!, content: fix.record!.content });
    if (fix.action === "create")
      creates.push({ type: fix.record!.type, name: fix.record!.name, content: fix.record!.content, ttl: fix.record!.ttl });
  }
  return {
    ...(deletes.length > 0 ? { deletes } : {}),
    ...(updates.length > 0 ? { updates } : {}),
    ...(creates.length > 0 ? { creates } : {}),
  };
}
