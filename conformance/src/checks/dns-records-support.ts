/**
 * What the DNS checks (records of both variants, bulk, templates, change sets) share: a domain of
 * the check's own, so a check compares whole zones, and the exact error answers each variant owes.
 */
import { expect } from "expect";
import type { CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { expectConforming, expectStatus } from "./expectations.js";

export interface RecordD {
  id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  created_at: string;
  updated_at: string;
}

export interface OwnDomain {
  id: string;
  name: string;
}

/**
 * A new sandbox domain of a new user, so no other check's records are in its zone. `stem` keeps
 * the name short: some rules (the 253 characters of a full name) depend on the domain's length.
 */
export async function ownDomain(context: CheckContext, stem: string): Promise<OwnDomain> {
  const { api } = context;
  if (!api.has("createSandboxDomain")) context.notApplicable("needs sandbox domains (createSandboxDomain) to own a zone");
  const user = context.unique(`dns_${stem}`).replace(/-/g, "_");
  const session = await api.call("createUserSession", { body: { user_identifier: user } });
  expectStatus(session, 201, "setting up a user for the check's own domain");
  const domain = await api.call("createSandboxDomain", { body: { user_identifier: user, domain_name: `${context.unique(stem)}.com` } });
  expectStatus(domain, 201, "setting up the check's own domain");
  return { id: domain.body.id, name: domain.body.name };
}

/** Every record of the domain through Variant D's list, following `next_cursor` to the end. */
export async function zoneOf(context: CheckContext, domainId: string, query: Record<string, string | number> = {}): Promise<RecordD[]> {
  const records: RecordD[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const result: CallResult = await context.api.call("listDomainDnsRecords", {
      path: { domain_id: domainId },
      query: { ...query, ...(cursor ? { cursor } : {}) },
    });
    expectConforming(result);
    expectStatus(result, 200, "listing the domain's records");
    records.push(...result.body.records);
    cursor = result.body.next_cursor;
    if (!cursor) return records;
  }
  throw new Error(`GET /api/v1/domains/${domainId}/dns gave a next_cursor on each of 20 pages for a small zone`);
}

/** A zone as sorted lines `TYPE name content ttl priority`, to compare whole zones. */
export const zoneLines = (records: readonly RecordD[]) =>
  records.map((r) => `${r.type} ${r.name} ${r.content} ttl=${r.ttl} priority=${r.priority}`).sort();

export const createD = (context: CheckContext, domainId: string, body: Record<string, unknown>) =>
  context.api.call("createDomainDnsRecord", { path: { domain_id: domainId }, body });

export const createR = (context: CheckContext, domainId: string, body: Record<string, unknown>) =>
  context.api.call("createDnsRecord", { body: { domain_id: domainId, ...body } });

/** Creates a record through Variant D that the check relies on, failing with the answer if refused. */
export async function seedD(context: CheckContext, domainId: string, body: Record<string, unknown>): Promise<RecordD> {
  const result = await createD(context, domainId, body);
  expectConforming(result);
  expectStatus(result, 201, `creating ${JSON.stringify(body)}`);
  return result.body;
}

/** The list shape, `{ errors: [string, ...] }` and nothing else, with exactly this status (Variant R's record errors). */
export function expectListShape(result: CallResult, status: number, why = ""): void {
  expectConforming(result);
  expectStatus(result, status, why);
  const body = result.body as Record<string, unknown>;
  if (typeof body !== "object" || body === null || Object.keys(body).join() !== "errors" || !Array.isArray(body.errors))
    throw new Error(
      `${result.label}${why ? ` (${why})` : ""} answered ${result.status} with ${JSON.stringify(body)}, not the list shape { errors: [...] }`,
    );
  if (body.errors.length === 0 || !body.errors.every((message) => typeof message === "string" && message.length > 0))
    throw new Error(`${result.label} answered a list shape whose errors are not non-empty strings: ${JSON.stringify(body)}`);
}

/** Fails unless the zone is still exactly `before` (a refused request changes nothing). */
export async function expectZoneUnchanged(context: CheckContext, domainId: string, before: readonly RecordD[], why: string): Promise<void> {
  const after = await zoneOf(context, domainId);
  expect({ why, zone: after }).toEqual({ why, zone: before });
}

/** A record's fields as a create gives them, to compare with what was answered or listed. */
export const brief = (record: Pick<RecordD, "type" | "name" | "content" | "priority">) => ({
  type: record.type,
  name: record.name,
  content: record.content,
  priority: record.priority,
});

/** Variant D's operations, for `operations:` of the checks that use them. */
export const VARIANT_D = ["createDomainDnsRecord", "listDomainDnsRecords"];
export const VARIANT_R = ["createDnsRecord", "getDnsRecord"];
