/** DNSSEC DS records at the registry: what ties the domain's signed zone to its parent's chain of trust (RFC 4034 section 5). */
import { apiErrors } from "../../platform/errors.js";
import { randomBase62 } from "../../platform/ids.js";
import type { DsRecordRow } from "./delegation-store.js";
import type { DomainServices } from "./domain-services.js";
import type { DomainRow } from "./domain-store.js";
import { touch } from "./glue-records.js";
import { assertDelegationChangeable } from "./nameservers.js";

/** The IANA algorithm numbers registries accept for new DS records (RFC 8624's recommended ones for signing). */
export const DNSSEC_ALGORITHMS: readonly number[] = [8, 10, 13, 14, 15, 16];
/** Hex digits of each digest type's digest: SHA-1, SHA-256, SHA-384. */
export const DIGEST_LENGTHS: Readonly<Record<number, number>> = { 1: 40, 2: 64, 4: 96 };
/** Enough for a key rollover of two keys with two digest types each, and then some; registries cap it similarly. */
export const MAX_DS_RECORDS = 8;

export interface DsRecordInput {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/** The record as stored (digest in lower case), checked; 422 naming the field that breaks a rule. The API's schema checks the same; the embedded interface's forms reach here unchecked. */
export function readDsRecord(input: DsRecordInput): DsRecordInput {
  if (!Number.isInteger(input.keyTag) || input.keyTag < 0 || input.keyTag > 65535) {
    throw apiErrors.invalidValue("key_tag", "out_of_range", "key_tag must be a whole number from 0 to 65535");
  }
  if (!DNSSEC_ALGORITHMS.includes(input.algorithm)) {
    throw apiErrors.invalidValue("algorithm", "invalid_value", `algorithm must be one of ${DNSSEC_ALGORITHMS.join(", ")}`);
  }
  const length = Object.hasOwn(DIGEST_LENGTHS, input.digestType) ? DIGEST_LENGTHS[input.digestType] : undefined;
  if (length === undefined) throw apiErrors.invalidValue("digest_type", "invalid_value", "digest_type must be 1, 2 or 4");
  if (!/^[0-9a-fA-F]*$/.test(input.digest)) throw apiErrors.invalidValue("digest", "invalid_format", "digest must be hex digits");
  if (input.digest.length !== length) {
    throw apiErrors.invalidValue(
      "digest",
      "invalid_value",
      `A digest of type ${input.digestType} has ${length} hex digits, not ${input.digest.length}`,
    );
  }
  return { ...input, digest: input.digest.toLowerCase() };
}

/** Publishes a DS record; 409 for the same one twice or one too many; sends `domain.updated`. */
export async function addDsRecord(services: DomainServices, domain: DomainRow, input: DsRecordInput): Promise<DsRecordRow> {
  assertDelegationChangeable(domain);
  const record = readDsRecord(input);
  const { delegations } = services.store;
  const existing = await delegations.dsRecordsOf(domain.id);
  const same = existing.find(
    (ds) =>
      ds.keyTag === record.keyTag &&
      ds.algorithm === record.algorithm &&
      ds.digestType === record.digestType &&
      ds.digest === record.digest,
  );
  if (same)
    throw apiErrors.conflict(`The domain already has this DS record (${same.id})`, { field: "digest", code: "duplicate_ds_record" });
  if (existing.length >= MAX_DS_RECORDS) {
    throw apiErrors.conflict(`A domain holds at most ${MAX_DS_RECORDS} DS records`, {
      field: "ds_records",
      code: "ds_limit_exceeded",
      limit: MAX_DS_RECORDS,
    });
  }
  const now = services.clock.now();
  const row: DsRecordRow = { id: `ds_${randomBase62(24)}`, domainId: domain.id, partnerId: domain.partnerId, ...record, createdAt: now };
  await delegations.saveDsRecord(row);
  await touch(services, domain, now);
  return row;
}

/** Withdraws a DS record; 404 when the domain has no such one; sends `domain.updated`. */
export async function removeDsRecord(services: DomainServices, domain: DomainRow, id: string): Promise<void> {
  assertDelegationChangeable(domain);
  if (!(await services.store.delegations.deleteDsRecord(domain.id, id))) throw apiErrors.notFound("DS record", id);
  await touch(services, domain, services.clock.now());
}
