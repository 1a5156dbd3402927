/**
 * A record's comment and the partner's lock in the embedded interface: the comment shown and
 * edited with the record; a locked record marked, without edit or delete, and its forms refused
 * however they are posted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { de } from "../../../server/embed/i18n/messages-de.js";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { entityTag } from "../../../server/platform/entity-tags.js";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });
/** The partner as the embedded interface names it: the test server's partners have no display name of their own. */
const PARTNER = "partner_a";

const records = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })).data!.records;
const createThroughApi = async (body: Record<string, unknown>) =>
  (
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: body as never,
    })
  ).data!;
const tagOf = async (id: string) => entityTag((await signedIn.server.services.store.findRecord(id))!);
const domainPage = () => signedIn.browser.get(`/domains/${signedIn.domainId}`);

describe("a record's comment", () => {
  it("is shown under the record's value, and added with the record", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, {
      type: "A",
      name: "www",
      content: "192.0.2.1",
      ttl: "3600",
      priority: "",
      comment: "The shop <front>",
    });
    expect(textOf(page.html)).toContain("A www 192.0.2.1 Comment: The shop <front> 3,600");
    expect(page.html).toContain(
      `<p class="record-comment"><span class="visually-hidden">Comment: </span>${escapeHtml("The shop <front>")}</p>`,
    );
    expect(await records()).toMatchObject([{ name: "www", comment: "The shop <front>", locked: false }]);
  });

  it("is in the edit form, changed or removed there, and kept by a form posted without the field", async () => {
    const record = await createThroughApi({ type: "A", name: "www", content: "192.0.2.1", comment: "first" });
    const form = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${record.id}/edit`);
    expect(form.html).toContain('<label for="edit-comment">Comment</label>');
    expect(form.html).toContain('id="edit-comment" name="comment" value="first"');
    const fields = { name: "www", content: "192.0.2.1", ttl: "300" };
    await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${record.id}`, {
      etag: await tagOf(record.id),
      ...fields,
      comment: "second",
    });
    expect((await records())[0]).toMatchObject({ comment: "second" });
    await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${record.id}`, { etag: await tagOf(record.id), ...fields, ttl: "600" });
    expect((await records())[0]).toMatchObject({ comment: "second", ttl: 600 });
    await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${record.id}`, { etag: await tagOf(record.id), ...fields, comment: "" });
    expect((await records())[0]).toMatchObject({ comment: null });
  });

  it("over 500 characters is refused at its field, in the user's words, and nothing is added", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, {
      type: "A",
      name: "www",
      content: "192.0.2.1",
      ttl: "3600",
      priority: "",
      comment: "x".repeat(501),
    });
    expect(page.status).toBe(422);
    expect(page.html).toContain(
      `id="add-comment-error"><span class="visually-hidden">Error: </span>${en.recordNotes.commentTooLong(500)}</p>`,
    );
    expect(await records()).toEqual([]);
  });

  it("comes back with a record restored after its deletion", async () => {
    const record = await createThroughApi({ type: "A", name: "www", content: "192.0.2.1", comment: "keep me" });
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${record.id}/delete`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${record.id}/delete`, { etag: await tagOf(record.id) });
    const eventId = /name="event" value="([^"]+)"/.exec(page.html)![1]!;
    await signedIn.browser.post(`/domains/${signedIn.domainId}/restore`, { event: eventId });
    expect(await records()).toMatchObject([{ name: "www", comment: "keep me" }]);
  });
});

describe("a record the partner locked", () => {
  let locked: { id: string };
  beforeEach(async () => {
    locked = await createThroughApi({
      type: "TXT",
      name: "_shop-verify",
      content: "shop-verify=4f2a",
      locked: true,
      comment: "Verification",
    });
    await createThroughApi({ type: "A", name: "www", content: "192.0.2.1" });
    signedIn.server.outbox.events.length = 0;
  });

  it("is marked with who locked it, and offers no edit or delete; an unlocked record still does", async () => {
    const page = await domainPage();
    expect(page.html).toMatch(
      new RegExp(
        `<span class="badge lock-badge" role="img" aria-label="Locked by ${PARTNER}" title="Locked by ${PARTNER}"><svg aria-hidden="true"[^]*</svg> Locked</span>`,
      ),
    );
    expect(textOf(page.html)).toContain(`${en.recordNotes.managedBy(PARTNER)}`);
    expect(page.html).not.toContain(`/dns/${locked.id}/edit`);
    expect(page.html).not.toContain(`/dns/${locked.id}/delete`);
    expect(page.html).toMatch(/\/dns\/rec_\w+\/edit/);
  });

  it("refuses its edit page and its delete page (409), saying who locked it", async () => {
    for (const path of ["edit", "delete"]) {
      const page = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${locked.id}/${path}`);
      expect(page.status).toBe(409);
      expect(textOf(page.html)).toContain(en.recordNotes.refused("TXT", "_shop-verify", PARTNER));
    }
  });

  it("changes nothing for a crafted edit post carrying the record's current version, nor one that tries to unlock it", async () => {
    const before = await records();
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${locked.id}`, {
      etag: await tagOf(locked.id),
      name: "_shop-verify",
      content: "hijacked",
      ttl: "600",
      comment: "",
      locked: "false",
    });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain(en.recordNotes.refused("TXT", "_shop-verify", PARTNER));
    expect(await records()).toEqual(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("deletes nothing for a crafted delete post", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${locked.id}/delete`, { etag: await tagOf(locked.id) });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain(en.recordNotes.refused("TXT", "_shop-verify", PARTNER));
    expect(await records()).toHaveLength(2);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("is the user's to edit again once the partner unlocks it through the API", async () => {
    await signedIn.server.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: signedIn.domainId, record_id: locked.id } },
      body: { locked: false },
    });
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${locked.id}/edit`)).status).toBe(200);
    expect((await domainPage()).html).toContain(`/dns/${locked.id}/delete`);
  });

  it("leaves a locked record alone when a template would need its name: the template is refused, naming the record", async () => {
    const www = (await records()).find((record) => record.name === "www")!;
    await signedIn.server.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: signedIn.domainId, record_id: www.id } },
    });
    await createThroughApi({ type: "CNAME", name: "www", content: "sites.partner.example", locked: true });
    const before = await records();
    signedIn.server.outbox.events.length = 0;
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "web-host",
      "variables.ip": "192.0.2.10",
    });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain(en.errors.cnameTaken("www"));
    expect(await records()).toEqual(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("says the lock and who locked it in German", async () => {
    const response = await fetch(`${signedIn.server.embedUrl}/domains/${signedIn.domainId}`, {
      headers: { cookie: signedIn.browser.cookie!, "accept-language": "de" },
    });
    const html = await response.text();
    expect(html).toContain(`aria-label="${de.recordNotes.lockedBy(PARTNER)}"`);
    expect(textOf(html)).toContain(de.recordNotes.managedBy(PARTNER));
    expect(textOf(html)).toContain("Kommentar: Verification");
  });
});
