/**
 * A record's comment and the partner's lock (issue 35): the comment round-trips in both variants
 * within its limit, the lock is answered and kept by updates that do not name it, bulk and change
 * sets carry both, and the embedded interface neither offers nor performs an edit or deletion of a
 * locked record, whatever a crafted form posts (the pages of docs/embedded-interface.md).
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { expectListShape, expectZoneUnchanged, seedD, VARIANT_D, VARIANT_R, zoneOf, type RecordD } from "./dns-records-support.js";
import { expectEmbedStatus, openEmbedPage, openLoginUrl, type EmbedAnswer } from "./embed-support.js";
import { eventsOfType } from "./events-support.js";

const needs = ["state" as const, "sandbox" as const];
/** The documented limit, in characters (DnsRecordComment). */
const COMMENT_MAX = 500;

interface Annotated extends RecordD {
  comment?: string | null;
  locked?: boolean;
}

/** A sandbox domain of a new user of the check's own, with the user's login_url for the embedded interface. */
async function ownDomainWithLogin(context: CheckContext, stem: string): Promise<{ id: string; loginUrl: string }> {
  const { api } = context;
  if (!api.has("createSandboxDomain")) context.notApplicable("needs sandbox domains (createSandboxDomain) to own a zone");
  const user = context.unique(`dns_${stem}`).replace(/-/g, "_");
  const session = await api.call("createUserSession", { body: { user_identifier: user } });
  expectStatus(session, 201, "setting up a user for the check's own domain");
  const domain = await api.call("createSandboxDomain", { body: { user_identifier: user, domain_name: `${context.unique(stem)}.com` } });
  expectStatus(domain, 201, "setting up the check's own domain");
  return { id: domain.body.id, loginUrl: session.body.login_url };
}

/** The comment and lock a record answers, named for the message of a failed comparison. */
const annotationsOf = (why: string, record: Annotated | undefined) => ({ why, comment: record?.comment, locked: record?.locked });

async function listed(context: CheckContext, domainId: string, id: string): Promise<Annotated | undefined> {
  return (await zoneOf(context, domainId)).find((record) => record.id === id);
}

const updateD = (context: CheckContext, domainId: string, id: string, body: Record<string, unknown>) =>
  context.api.call("updateDomainDnsRecord", { path: { domain_id: domainId, record_id: id }, body });

const updateR = (context: CheckContext, id: string, body: Record<string, unknown>) =>
  context.api.call("updateDnsRecord", { path: { id }, body });

/** Fails unless the answer is 200 with these annotations, and the domain's list shows the same. */
async function expectAnnotated(
  context: CheckContext,
  domainId: string,
  result: CallResult,
  status: number,
  expected: { comment: string | null; locked: boolean },
  why: string,
): Promise<void> {
  expectConforming(result);
  expectStatus(result, status, why);
  expect(annotationsOf(why, result.body)).toEqual({ why, ...expected });
  expect(annotationsOf(`${why}, as listed`, await listed(context, domainId, result.body.id))).toEqual({
    why: `${why}, as listed`,
    ...expected,
  });
}

/** A form of the embed host posted as a browser posts it: urlencoded, with the session's cookie. */
async function postForm(url: string, cookie: string, fields: Record<string, string>): Promise<EmbedAnswer> {
  const response = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { Accept: "text/html", Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { url, status: response.status, headers: response.headers, cookie: null, cookieAttributes: [], body: await response.text() };
}

/** The synchronizer token the page's add form carries (docs/embedded-interface.md: every POST passes it). */
function csrfTokenOf(page: EmbedAnswer, domainId: string): Record<string, string> {
  const form = new RegExp(
    `<form method="post" action="/domains/${domainId}/dns"[^>]*>\\s*<input type="hidden" name="([^"]+)" value="([^"]+)">`,
  );
  const field = form.exec(page.body);
  if (!field) throw new Error(`GET ${page.url} shows no add form with a hidden token to post a crafted form with`);
  return { [field[1]!]: field[2]! };
}

export default defineChecks([
  {
    id: "record-annotations.comment-round-trips",
    title:
      "a Variant D record's comment is answered and listed as given (null without one), kept by an update that does not name it, replaced or removed (null or empty) by one that does; 500 characters are taken, 501 refused with 422 (comment, too_long) changing nothing",
    needs,
    operations: [...VARIANT_D, "updateDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomainWithLogin(context, "cmt");
      const plain = await seedD(context, domain.id, { type: "A", name: "plain", content: "192.0.2.1" });
      expect(annotationsOf("a record created without a comment or lock", plain)).toEqual({
        why: "a record created without a comment or lock",
        comment: null,
        locked: false,
      });
      const noted = await context.api.call("createDomainDnsRecord", {
        path: { domain_id: domain.id },
        body: { type: "TXT", name: "_verify", content: "token=1", comment: "Shop verification — keep" },
      });
      await expectAnnotated(
        context,
        domain.id,
        noted,
        201,
        { comment: "Shop verification — keep", locked: false },
        "creating with a comment",
      );
      const id = noted.body.id as string;
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { ttl: 600 }),
        200,
        { comment: "Shop verification — keep", locked: false },
        "an update naming only ttl",
      );
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { comment: "Renamed" }),
        200,
        { comment: "Renamed", locked: false },
        "an update naming only the comment",
      );
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { comment: "" }),
        200,
        { comment: null, locked: false },
        "an empty comment",
      );
      await updateD(context, domain.id, id, { comment: "again" });
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { comment: null }),
        200,
        { comment: null, locked: false },
        "a null comment",
      );
      await expectAnnotated(
        context,
        domain.id,
        await context.api.call("createDomainDnsRecord", {
          path: { domain_id: domain.id },
          body: { type: "A", name: "long", content: "192.0.2.2", comment: "é".repeat(COMMENT_MAX) },
        }),
        201,
        { comment: "é".repeat(COMMENT_MAX), locked: false },
        `a comment of ${COMMENT_MAX} characters`,
      );
      const before = await zoneOf(context, domain.id);
      expectCoded(
        await context.api.call("createDomainDnsRecord", {
          path: { domain_id: domain.id },
          body: { type: "A", name: "longer", content: "192.0.2.3", comment: "x".repeat(COMMENT_MAX + 1) },
        }),
        422,
        "validation_error",
        "comment",
        "too_long",
        `creating with a comment of ${COMMENT_MAX + 1} characters`,
      );
      expectCoded(
        await updateD(context, domain.id, id, { comment: "x".repeat(COMMENT_MAX + 1) }),
        422,
        "validation_error",
        "comment",
        "too_long",
        `updating to a comment of ${COMMENT_MAX + 1} characters`,
      );
      await expectZoneUnchanged(context, domain.id, before, "a refused comment must change nothing");
    },
  },
  {
    id: "record-annotations.r-comment-round-trips",
    title:
      "a Variant R record's comment is answered on create and read, kept by a PATCH that does not name it (a type change included), replaced by one that does; 501 characters are refused with 422 in the list shape",
    needs,
    operations: [...VARIANT_R, "updateDnsRecord"],
    async run(context) {
      const domain = await ownDomainWithLogin(context, "rcm");
      const created = await context.api.call("createDnsRecord", {
        body: { domain_id: domain.id, type: "A", name: "shop", value: "192.0.2.1", comment: "Storefront" },
      });
      expectConforming(created);
      expectStatus(created, 201, "creating a Variant R record with a comment");
      const id = created.body.id as string;
      const read = await context.api.call("getDnsRecord", { path: { id } });
      expect(annotationsOf("reading it", read.body)).toEqual({ why: "reading it", comment: "Storefront", locked: false });
      const changed = await updateR(context, id, { type: "CNAME", value: "shops.example.net" });
      expectStatus(changed, 200, "a PATCH changing the type and value only");
      expect(annotationsOf("after a PATCH of type and value", changed.body)).toEqual({
        why: "after a PATCH of type and value",
        comment: "Storefront",
        locked: false,
      });
      const renamed = await updateR(context, id, { comment: "Storefront (CNAME)" });
      expect(annotationsOf("after a PATCH of the comment", renamed.body)).toEqual({
        why: "after a PATCH of the comment",
        comment: "Storefront (CNAME)",
        locked: false,
      });
      const before = await zoneOf(context, domain.id);
      expectListShape(
        await context.api.call("createDnsRecord", {
          body: { domain_id: domain.id, type: "A", name: "www", value: "192.0.2.1", comment: "x".repeat(COMMENT_MAX + 1) },
        }),
        422,
        `a comment of ${COMMENT_MAX + 1} characters`,
      );
      expectListShape(await updateR(context, id, { comment: "x".repeat(COMMENT_MAX + 1) }), 422, "a PATCH to a comment too long");
      await expectZoneUnchanged(context, domain.id, before, "a refused comment must change nothing");
    },
  },
  {
    id: "record-annotations.locked-survives-updates",
    title:
      "locked is false unless set; a record created locked answers and lists locked true, keeps it through updates that do not name it (content, ttl, comment) in both variants, and is unlocked and deleted by the API; its dns_record events carry the comment and the lock of each state",
    needs,
    operations: [...VARIANT_D, ...VARIANT_R, "updateDomainDnsRecord", "updateDnsRecord", "deleteDnsRecord", "listEvents"],
    async run(context) {
      const domain = await ownDomainWithLogin(context, "lck");
      const created = await context.api.call("createDomainDnsRecord", {
        path: { domain_id: domain.id },
        body: { type: "TXT", name: "_verify", content: "token=1", locked: true },
      });
      await expectAnnotated(context, domain.id, created, 201, { comment: null, locked: true }, "creating a locked record");
      const id = created.body.id as string;
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { content: "token=2", ttl: 900 }),
        200,
        { comment: null, locked: true },
        "a Variant D update of content and ttl",
      );
      const patched = await updateR(context, id, { comment: "Verification" });
      expectStatus(patched, 200, "a Variant R PATCH of the comment only");
      expect(annotationsOf("after a Variant R PATCH of the comment", patched.body)).toEqual({
        why: "after a Variant R PATCH of the comment",
        comment: "Verification",
        locked: true,
      });
      await expectAnnotated(
        context,
        domain.id,
        await updateD(context, domain.id, id, { locked: false }),
        200,
        { comment: "Verification", locked: false },
        "unlocking through Variant D",
      );
      const relocked = await updateR(context, id, { locked: true });
      expect(annotationsOf("locking again through Variant R", relocked.body)).toEqual({
        why: "locking again through Variant R",
        comment: "Verification",
        locked: true,
      });
      const rCreated = await context.api.call("createDnsRecord", {
        body: { domain_id: domain.id, type: "A", name: "@", value: "192.0.2.10", locked: true },
      });
      expectStatus(rCreated, 201, "creating a locked record through Variant R");
      expect(rCreated.body.locked).toBe(true);
      // The lock binds the user in the embedded interface, not the partner.
      expectStatus(await context.api.call("deleteDnsRecord", { path: { id } }), 204, "the API deleting a locked record");
      // The kit runs its checks one at a time: the newest events of each type hold this record's.
      const announced = async (type: string) =>
        (await eventsOfType(context, type, 100, 1))
          .filter((event) => event.data?.id === id)
          .map((event) => annotationsOf(type, event.data));
      expect(await announced("dns_record.created")).toEqual([{ why: "dns_record.created", comment: null, locked: true }]);
      expect(await announced("dns_record.deleted")).toEqual([{ why: "dns_record.deleted", comment: "Verification", locked: true }]);
      expect(await announced("dns_record.updated")).toEqual(
        expect.arrayContaining([
          { why: "dns_record.updated", comment: "Verification", locked: true },
          { why: "dns_record.updated", comment: "Verification", locked: false },
        ]),
      );
    },
  },
  {
    id: "record-annotations.bulk-and-change-sets",
    title:
      "bulk creation takes each record's comment and lock; a change set creates with them, updates them (keeping what an update does not name) and deletes a locked record",
    needs,
    operations: [...VARIANT_D, "bulkCreateDomainDnsRecords", "applyDnsChangeSet"],
    async run(context) {
      const domain = await ownDomainWithLogin(context, "acs");
      const bulk = await context.api.call("bulkCreateDomainDnsRecords", {
        path: { domain_id: domain.id },
        body: {
          records: [
            { type: "A", name: "@", content: "192.0.2.1", comment: "Shop address", locked: true },
            { type: "A", name: "www", content: "192.0.2.1" },
          ],
        },
      });
      expectConforming(bulk);
      expectStatus(bulk, 200, "bulk creation with a comment and a lock");
      const created = bulk.body.created as Annotated[];
      expect(created.map((record) => annotationsOf(record.name, record))).toEqual([
        { why: "@", comment: "Shop address", locked: true },
        { why: "www", comment: null, locked: false },
      ]);
      const [apex, www] = created;
      const set = await context.api.call("applyDnsChangeSet", {
        path: { domain_id: domain.id },
        body: {
          deletes: [{ id: apex!.id }],
          updates: [{ id: www!.id, comment: "Now the shop's", locked: true }],
          creates: [{ type: "A", name: "@", content: "192.0.2.2", comment: "New shop address", locked: true }],
        },
      });
      expectConforming(set);
      expectStatus(set, 200, "a change set deleting a locked record, locking one and creating one locked");
      const zone = (await zoneOf(context, domain.id)) as Annotated[];
      expect(
        zone
          .map((record) => ({ name: record.name, content: record.content, comment: record.comment, locked: record.locked }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      ).toEqual([
        { name: "@", content: "192.0.2.2", comment: "New shop address", locked: true },
        { name: "www", content: "192.0.2.1", comment: "Now the shop's", locked: true },
      ]);
      const ttlOnly = await context.api.call("applyDnsChangeSet", {
        path: { domain_id: domain.id },
        body: { updates: [{ id: www!.id, ttl: 600 }] },
      });
      expectStatus(ttlOnly, 200, "a change set updating only the ttl of a locked record");
      expect(annotationsOf("after a change set naming only ttl", ttlOnly.body.updated[0].after)).toEqual({
        why: "after a change set naming only ttl",
        comment: "Now the shop's",
        locked: true,
      });
    },
  },
  {
    id: "record-annotations.embed-refuses-locked",
    title:
      "the embedded interface's domain page offers no edit or delete of a locked record (it does of an unlocked one); its edit and delete pages are refused, and crafted edit and delete posts with the page's token change nothing",
    needs,
    operations: [...VARIANT_D, "createUserSession"],
    async run(context) {
      const domain = await ownDomainWithLogin(context, "emb");
      const lockedAnswer = await context.api.call("createDomainDnsRecord", {
        path: { domain_id: domain.id },
        body: { type: "TXT", name: "_verify", content: "token=1", locked: true },
      });
      expectStatus(lockedAnswer, 201, "creating a locked record");
      const locked = lockedAnswer.body as Annotated;
      // The record's version as the API tags it: the one an edit or delete form of the record carries.
      const version = { etag: lockedAnswer.headers.get("etag") ?? "" };
      const open = await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.1" });
      const { page, cookie } = await openLoginUrl(domain.loginUrl, "opening the domain owner's login_url");
      const domainPage = await openEmbedPage(new URL(`/domains/${domain.id}`, page).href, cookie);
      expectEmbedStatus(domainPage, [200], "the domain's page");
      const offered = (record: string, action: string) =>
        new RegExp(`/domains/${domain.id}/dns/${record}/${action}\\b`).test(domainPage.body);
      expect({ lockedEdit: offered(locked.id, "edit"), lockedDelete: offered(locked.id, "delete") }).toEqual({
        lockedEdit: false,
        lockedDelete: false,
      });
      expect({ openEdit: offered(open.id, "edit"), openDelete: offered(open.id, "delete") }).toEqual({ openEdit: true, openDelete: true });
      const before = await zoneOf(context, domain.id);
      for (const action of ["edit", "delete"]) {
        const shown = await openEmbedPage(new URL(`/domains/${domain.id}/dns/${locked.id}/${action}`, page).href, cookie);
        if (shown.status === 200 && /<form[^>]+method="post"[^>]+\/dns\//.test(shown.body))
          throw new Error(`GET ${shown.url} answered 200 with a form to ${action} a locked record`);
      }
      const token = csrfTokenOf(domainPage, domain.id);
      const recordUrl = new URL(`/domains/${domain.id}/dns/${locked.id}`, page).href;
      const edit = await postForm(recordUrl, cookie, {
        ...token,
        ...version,
        name: "_verify",
        content: "hijacked",
        ttl: "600",
        comment: "",
        locked: "false",
      });
      const remove = await postForm(`${recordUrl}/delete`, cookie, { ...token, ...version });
      for (const answer of [edit, remove])
        if (answer.status < 400) throw new Error(`POST ${answer.url} on a locked record answered ${answer.status}, not a refusal`);
      await expectZoneUnchanged(context, domain.id, before, "crafted posts on a locked record must change nothing");
    },
  },
]);
