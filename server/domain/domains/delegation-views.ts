/** The wire shapes of a domain's delegation: its fields in the domain's detail, glue and DS records. */
import type { components } from "../../../generated/types/full.js";
import { timestamp } from "../../platform/clock.js";
import type { DsRecordRow, GlueRecordRow, NameserverChangeRow } from "./delegation-store.js";
import { isServiceNameservers } from "./delegation.js";
import type { DomainRow } from "./domain-store.js";

type Schemas = components["schemas"];

/** What the domain's detail says of its delegation, from its pending change. */
export function delegationFieldsOf(
  domain: DomainRow,
  pending: NameserverChangeRow | undefined,
): Pick<Schemas["DomainDetail"], "dns_active" | "nameserver_change"> {
  return {
    dns_active: isServiceNameservers(domain.nameservers),
    nameserver_change: pending
      ? {
          nameservers: [...pending.nameservers],
          requested_at: timestamp(pending.requestedAt),
          completes_at: timestamp(pending.completesAt),
        }
      : null,
  };
}

export const toGlueRecord = (glue: GlueRecordRow): Schemas["GlueRecord"] => ({
  host: glue.host,
  ipv4: [...glue.ipv4],
  ipv6: [...glue.ipv6],
  updated_at: timestamp(glue.updatedAt),
});

export const toDsRecord = (ds: DsRecordRow): Schemas["DsRecord"] => ({
  id: ds.id,
  key_tag: ds.keyTag,
  algorithm: ds.algorithm,
  digest_type: ds.digestType,
  digest: ds.digest,
  created_at: timestamp(ds.createdAt),
});
