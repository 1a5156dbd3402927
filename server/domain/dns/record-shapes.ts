/** The two wire shapes of one stored record: Variant D (content) and Variant R (value, SRV split). */
import type { components } from "../../../generated/types/full.js";
import { timestamp } from "../../platform/clock.js";
import type { DnsRecordRow } from "./record-store.js";
import { parseSrv } from "./record-content.js";

type Schemas = components["schemas"];

export function toRecordD(record: DnsRecordRow): Schemas["DnsRecordD"] {
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    content: record.content,
    ttl: record.ttl,
    priority: record.priority,
    comment: record.comment,
    locked: record.locked,
    created_at: timestamp(record.createdAt),
    updated_at: timestamp(record.updatedAt),
  };
}

export function toRecordR(record: DnsRecordRow): Schemas["DnsRecordR"] {
  const srv = record.type === "SRV" ? parseSrv(record.content) : null;
  return {
    id: record.id,
    domain_id: record.domainId,
    type: record.type,
    name: record.name,
    value: srv ? srv.target : record.content,
    ttl: record.ttl,
    priority: record.priority,
    weight: srv?.weight ?? null,
    port: srv?.port ?? null,
    target: srv?.target ?? null,
    comment: record.comment,
    locked: record.locked,
  };
}
