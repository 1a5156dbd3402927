/**
 * Entity tags (the spec's "Concurrent edits"): users, domains and DNS records of both variants
 * carry a strong `ETag` that changes with their state, and every PUT, PATCH and DELETE that
 * documents `If-Match` changes nothing unless one of the tags it holds is current (412 with the
 * current tag otherwise).
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { operationsOfDocument, type CallResult } from "../contract-client.js";
import { expectAnswer, expectStatus } from "./expectations.js";

const TAG = /^"[\x21\x23-\x7E]+"$/;

/** A resource kind whose writes take If-Match: how to make one, read its state, and change it. */
interface TaggedKind {
  name: string;
  update: string;
  delete?: string;
  /** Makes a resource of its own; `tag` is the creation's (or first read's) ETag. */
  make(context: CheckContext): Promise<{ path: Record<string, string>; tag: string; initial: unknown }>;
  /** The i-th change; odd ones change the state from `initial`, even ones put it back. */
  change(i: number, initial: unknown): Record<string, unknown>;
  /** The state the changes touch, read back through the API. */
  state(context: CheckContext, path: Record<string, string>): Promise<unknown>;
  /** The same state read from `change(i)`'s body. */
  stateOf(body: Record<string, unknown>): unknown;
}

function tagOf(result: CallResult, what: string): string {
  const tag = result.headers.get("etag");
  if (!tag || !TAG.test(tag)) throw new Error(`${result.label} (${what}) answered ETag ${JSON.stringify(tag)}, not a strong entity tag`);
  return tag;
}

async function made(context: CheckContext, operationId: string, input: Parameters<CheckContext["api"]["call"]>[1], status = 201) {
  const result = await context.api.call(operationId, input);
  expectAnswer(result, status, undefined, `making a resource for ${operationId}`);
  return result;
}

async function sandboxDomain(context: CheckContext): Promise<string> {
  const user = context.unique("etag_user").replaceAll("-", "_");
  await made(context, "createUserSession", { body: { user_identifier: user } });
  return (
    await made(context, "createSandboxDomain", { body: { user_identifier: user, domain_name: `${context.unique("etag")}.com`, years: 1 } })
  ).body.id;
}

const KINDS: TaggedKind[] = [
  {
    name: "user",
    update: "updateUser",
    delete: "deleteUser",
    async make(context) {
      const user = context.unique("etag_user").replaceAll("-", "_");
      await made(context, "createUserSession", { body: { user_identifier: user } });
      const read = await made(context, "getUser", { path: { user_identifier: user } }, 200);
      return { path: { user_identifier: user }, tag: tagOf(read, "reading a user"), initial: null };
    },
    change: (i) => ({ email: i % 2 === 1 ? `changed-${i}@example.com` : null }),
    state: async (context, path) => (await made(context, "getUser", { path }, 200)).body.email,
    stateOf: (body) => body.email,
  },
  {
    name: "domain",
    update: "updateDomain",
    async make(context) {
      const domainId = await sandboxDomain(context);
      const read = await made(context, "getDomain", { path: { domain_id: domainId } }, 200);
      return { path: { domain_id: domainId }, tag: tagOf(read, "reading a domain"), initial: read.body.auto_renew };
    },
    change: (i, initial) => ({ auto_renew: i % 2 === 1 ? !initial : initial }),
    state: async (context, path) => (await made(context, "getDomain", { path }, 200)).body.auto_renew,
    stateOf: (body) => body.auto_renew,
  },
  {
    name: "record (Variant R)",
    update: "updateDnsRecord",
    delete: "deleteDnsRecord",
    async make(context) {
      const domainId = await sandboxDomain(context);
      const created = await made(context, "createDnsRecord", {
        body: { domain_id: domainId, type: "TXT", name: "etag", value: "etag check", ttl: 3600 },
      });
      return { path: { id: created.body.id }, tag: tagOf(created, "creating a record"), initial: 3600 };
    },
    change: (i, initial) => ({ ttl: i % 2 === 1 ? 600 + i : (initial as number) }),
    state: async (context, path) => (await made(context, "getDnsRecord", { path }, 200)).body.ttl,
    stateOf: (body) => body.ttl,
  },
  {
    name: "record (Variant D)",
    update: "updateDomainDnsRecord",
    delete: "deleteDomainDnsRecord",
    async make(context) {
      const domainId = await sandboxDomain(context);
      const created = await made(context, "createDomainDnsRecord", {
        path: { domain_id: domainId },
        body: { type: "TXT", name: "etag", content: "etag check", ttl: 3600 },
      });
      return { path: { domain_id: domainId, record_id: created.body.id }, tag: tagOf(created, "creating a record"), initial: 3600 };
    },
    change: (i, initial) => ({ ttl: i % 2 === 1 ? 600 + i : (initial as number) }),
    async state(context, path) {
      const list = await made(context, "listDomainDnsRecords", { path: { domain_id: path.domain_id! } }, 200);
      return list.body.records.find((record: any) => record.id === path.record_id)?.ttl;
    },
    stateOf: (body) => body.ttl,
  },
  {
    // The zone's tag is of its records: an import (replace) with a stale one must not apply.
    name: "zone (import)",
    update: "importDomainZone",
    async make(context) {
      const domainId = await sandboxDomain(context);
      const read = await made(context, "exportDomainZone", { path: { domain_id: domainId } }, 200);
      return { path: { domain_id: domainId }, tag: tagOf(read, "exporting the zone"), initial: null };
    },
    // Odd changes hold one TXT record at `etag`; even ones none: `replace` leaves the zone as the file says.
    change: (i) => ({ mode: "replace", zone_file: i % 2 === 1 ? `etag 300 IN TXT "zone-state-${i}"\n` : "" }),
    async state(context, path) {
      const exported = await made(context, "exportDomainZone", { path }, 200);
      return zoneTxtAtEtag(String(exported.body));
    },
    stateOf: (body) => zoneTxtAtEtag(String(body.zone_file)),
  },
];

/** The TXT strings a zone file holds at the owner `etag`, as the kind above writes and the export answers them. */
function zoneTxtAtEtag(zoneFile: string): string[] {
  return [...zoneFile.matchAll(/^etag(?:\.[^\s]*)?\s+(?:\d+\s+)?(?:IN\s+)?TXT\s+"([^"]*)"/gm)].map((match) => match[1]!);
}

/** Operations the kit knows how to guard: a new one in the document without a kind here fails the check. */
const GUARDED = new Set(KINDS.flatMap((kind) => [kind.update, ...(kind.delete ? [kind.delete] : [])]));

function expectPreconditionFailed(result: CallResult, current: string, why: string): void {
  expectAnswer(result, 412, { error: "precondition_failed", details: { etag: current } }, why);
  expect({ etag: result.headers.get("etag") }).toEqual({ etag: current });
}

async function checkKind(context: CheckContext, kind: TaggedKind): Promise<void> {
  const { api } = context;
  const { path, tag: original, initial } = await kind.make(context);
  const update = (i: number, ifMatch?: string) =>
    api.call(kind.update, { path, body: kind.change(i, initial), ...(ifMatch === undefined ? {} : { headers: { "If-Match": ifMatch } }) });

  const first = await update(1);
  expectAnswer(first, 200, undefined, `${kind.name}: a change without If-Match`);
  const current = tagOf(first, "a change");
  if (current === original) throw new Error(`${kind.name}: the ETag ${original} did not change when the resource did`);

  expectPreconditionFailed(await update(2, original), current, `${kind.name}: a change with a stale If-Match`);
  expect(await kind.state(context, path)).toEqual(kind.stateOf(kind.change(1, initial)));
  expectPreconditionFailed(await update(2, `W/${current}`), current, `${kind.name}: a weak tag never matches`);
  expectAnswer(await update(2, "not-a-tag"), 400, undefined, `${kind.name}: a malformed If-Match`);
  expect(await kind.state(context, path)).toEqual(kind.stateOf(kind.change(1, initial)));

  const listed = await update(2, `"stale-tag", ${current}`);
  expectAnswer(listed, 200, undefined, `${kind.name}: If-Match listing the current tag among others`);
  expect(await kind.state(context, path)).toEqual(kind.stateOf(kind.change(2, initial)));
  const anyState = await update(3, "*");
  expectAnswer(anyState, 200, undefined, `${kind.name}: If-Match *`);
  const latest = tagOf(anyState, "a change");

  if (!kind.delete || !api.has(kind.delete)) return;
  expectPreconditionFailed(
    await api.call(kind.delete, { path, headers: { "If-Match": current } }),
    latest,
    `${kind.name}: a delete with a stale If-Match`,
  );
  expect(await kind.state(context, path)).toEqual(kind.stateOf(kind.change(3, initial)));
  expectStatus(await api.call(kind.delete, { path, headers: { "If-Match": latest } }), 204, `${kind.name}: a delete with the current tag`);
  expectAnswer(
    await api.call(kind.delete, { path, headers: { "If-Match": "*" } }),
    404,
    undefined,
    `${kind.name}: a resource that does not exist is 404 whatever If-Match says`,
  );
}

export default defineChecks([
  {
    id: "entity-tags.if-match-on-every-guarded-write",
    title:
      "every write documenting If-Match: a stale or weak tag is 412 with the current tag and changes nothing; a listed current tag or * applies; malformed is 400",
    needs: ["state", "sandbox"],
    async run(context) {
      const documented = operationsOfDocument(context.target.document)
        .filter((op) => [...(op.operation.parameters ?? [])].some((p: any) => p.$ref?.endsWith("/IfMatch") || p.name === "If-Match"))
        .map((op) => op.operationId);
      expect(documented.filter((id) => !GUARDED.has(id))).toEqual([]);
      const failures: string[] = [];
      let checked = 0;
      for (const kind of KINDS.filter((k) => documented.includes(k.update))) {
        try {
          await checkKind(context, kind);
          checked++;
        } catch (error) {
          failures.push(`${kind.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (failures.length) throw new Error(`${failures.length} of ${checked + failures.length} kinds:\n${failures.join("\n")}`);
      context.note(`checked ${documented.join(", ")}`);
    },
  },
  {
    id: "entity-tags.one-of-two-writers-wins",
    title: "of two concurrent writers holding the same tag exactly one succeeds; the other gets 412",
    needs: ["state", "sandbox"],
    operations: ["getDomain", "updateDomain"],
    async run(context) {
      const domainId = await sandboxDomain(context);
      const read = await made(context, "getDomain", { path: { domain_id: domainId } }, 200);
      const tag = tagOf(read, "reading a domain");
      const answers = await Promise.all(
        [true, false].map((whoisPrivacy) =>
          context.api.call("updateDomain", {
            path: { domain_id: domainId },
            body: { auto_renew: !read.body.auto_renew, whois_privacy: whoisPrivacy },
            headers: { "If-Match": tag },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    },
  },
  {
    id: "entity-tags.tag-versions-own-state",
    title: "a tag is stable across reads, the same for the same state in both variants, and unmoved by changes to other resources",
    needs: ["state", "sandbox"],
    operations: ["getUser", "getDomain", "createDnsRecord", "getDnsRecord", "updateDomainDnsRecord"],
    async run(context) {
      const { api } = context;
      const domainId = await sandboxDomain(context);
      const domainTag = tagOf(await made(context, "getDomain", { path: { domain_id: domainId } }, 200), "reading a domain");
      expect(tagOf(await made(context, "getDomain", { path: { domain_id: domainId } }, 200), "reading it again")).toBe(domainTag);
      const created = await made(context, "createDnsRecord", {
        body: { domain_id: domainId, type: "TXT", name: "tags", value: "tag check" },
      });
      const readR = await made(context, "getDnsRecord", { path: { id: created.body.id } }, 200);
      expect(tagOf(readR, "reading the record")).toBe(tagOf(created, "creating the record"));
      // A record of the domain is another resource: the domain's own tag stays.
      expect(tagOf(await made(context, "getDomain", { path: { domain_id: domainId } }, 200), "the domain after a record was added")).toBe(
        domainTag,
      );
      const changedD = await api.call("updateDomainDnsRecord", {
        path: { domain_id: domainId, record_id: created.body.id },
        body: { ttl: 1200 },
      });
      expectAnswer(changedD, 200);
      expect(tagOf(await made(context, "getDnsRecord", { path: { id: created.body.id } }, 200), "the record read through Variant R")).toBe(
        tagOf(changedD, "the record changed through Variant D"),
      );
    },
  },
]);
