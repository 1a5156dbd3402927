/**
 * DNS records in the embedded interface: the API's rules, because both use one module, said in the
 * user's words at each field; the records table and its order; deleting after a confirmation, and
 * restoring; templates reviewed before they are applied.
 */
import { entityTag } from "../../../server/platform/entity-tags.js";
import { beforeEach, describe, expect, it } from "vitest";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });

const records = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })).data!.records;
const addRecord = (fields: Record<string, string>) =>
  signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, { type: "A", name: "@", content: "", ttl: "3600", priority: "", ...fields });
/** What the API answers for the same record: its status, message and field. */
const apiRefusal = async (record: { type: string; name: string; content: string; ttl: number; priority?: number }) => {
  const { error, response } = await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
    params: { path: { domain_id: signedIn.domainId } },
    body: record as never,
  });
  return { status: response.status, ...(error as { message: string; details: { field: string } }) };
};
/** A field's error as the page marks it up. */
const fieldError = (id: string, message: string) =>
  `id="${id}-error"><span class="visually-hidden">Error: </span>${escapeHtml(message)}</p>`;

describe("GET /domains/{id}", () => {
  it("shows the domain, its records, the add form and the template catalogue", async () => {
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 },
    });
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Status Active Expires November 22, 2027 Auto-renew On WHOIS privacy On");
    expect(text).toContain("Type Name ▲ , sorted A to Z Value TTL Actions");
    expect(text).toContain("MX @ mail.adalovelace.com (priority 10) 300 Edit MX record @ Delete MX record @");
    expect(page.html).toContain('<label for="add-type">Type</label>');
    // The add form starts with the TTL the API gives a record created without one (Variant D's, served here).
    expect(page.html).toContain('id="add-ttl" name="ttl" value="300"');
    expect(text).toContain("Google Workspace");
    expect(text).toContain("Review SPF and DMARC");
  });

  it("sorts the table by a column, both ways, with the order announced", async () => {
    for (const [type, name, content] of [
      ["TXT", "b", "text"],
      ["A", "c", "192.0.2.1"],
      ["AAAA", "a", "2001:db8::1"],
    ])
      await addRecord({ type: type!, name: name!, content: content! });
    const rowsOf = (html: string) =>
      [...html.matchAll(/<tr id="record-[^"]+">\n<td data-label="Type"><span class="record-type">(\w+)</g)].map((m) => m[1]);
    const byName = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    expect(rowsOf(byName.html)).toEqual(["AAAA", "TXT", "A"]);
    expect(byName.html).toContain('<th scope="col" aria-sort="ascending">');
    const byType = await signedIn.browser.get(`/domains/${signedIn.domainId}?sort=type&order=desc`);
    expect(rowsOf(byType.html)).toEqual(["TXT", "AAAA", "A"]);
    expect(byType.html).toContain('aria-sort="descending"><a href="/domains/');
    expect(textOf(byType.html)).toContain("Type ▼ , sorted Z to A");
    // A sort the page does not offer is the default order, never an error.
    expect(rowsOf((await signedIn.browser.get(`/domains/${signedIn.domainId}?sort=__proto__&order=x`)).html)).toEqual(["AAAA", "TXT", "A"]);
  });
});

describe("POST /domains/{id}/dns", () => {
  it("adds an MX record as the API does: stored, dns_record.created emitted, listed", async () => {
    const page = await addRecord({ type: "MX", name: "@", content: "mail.adalovelace.com", priority: "10" });
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("The MX record @ is added to adalovelace.com.");
    expect(await records()).toMatchObject([{ type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10, ttl: 3600 }]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.created"]);
  });

  it.each<[string, { type: string; name: string; content: string; ttl: number; priority?: number }, string, string]>([
    [
      "an MX record whose content is not a host name",
      { type: "MX", name: "@", content: "not a host", ttl: 3600, priority: 10 },
      "content",
      en.errors.content.MX,
    ],
    [
      "an MX record without priority",
      { type: "MX", name: "@", content: "mail.adalovelace.com", ttl: 3600 },
      "priority",
      en.errors.priorityMissing,
    ],
    ["an A record with an IPv6 address", { type: "A", name: "www", content: "2001:db8::1", ttl: 3600 }, "content", en.errors.content.A],
    ["a CNAME at the root", { type: "CNAME", name: "@", content: "example.net", ttl: 3600 }, "name", en.errors.cnameAtRoot],
    [
      "an AAAA record with an IPv4-mapped address",
      { type: "AAAA", name: "www", content: "::ffff:192.0.2.1", ttl: 3600 },
      "content",
      en.errors.content.AAAA,
    ],
    [
      "an SRV record with three parts",
      { type: "SRV", name: "_sip._tcp", content: "10 5 sip.adalovelace.com", ttl: 3600 },
      "content",
      en.errors.content.SRV,
    ],
    [
      "priority on an A record",
      { type: "A", name: "www", content: "192.0.2.1", ttl: 3600, priority: 5 },
      "priority",
      en.errors.priorityUnused,
    ],
    ["a TXT string over 255 characters", { type: "TXT", name: "@", content: "x".repeat(256), ttl: 3600 }, "content", en.errors.content.TXT],
  ])("refuses %s with the API's status, in words at the API's field", async (_case, record, field, message) => {
    const api = await apiRefusal(record);
    expect(api.details.field).toBe(field);
    const page = await addRecord({
      type: record.type,
      name: record.name,
      content: record.content,
      ttl: String(record.ttl),
      priority: record.priority === undefined ? "" : String(record.priority),
    });
    expect(page.status).toBe(api.status);
    expect(page.html).toContain(fieldError(`add-${field}`, message));
    expect(page.html).toContain(`aria-invalid="true"`);
    expect(textOf(page.html)).toContain(`The record was not added ${message}`);
    // The API's sentence is for developers; the page never shows it.
    expect(textOf(page.html)).not.toContain(api.message);
    // The refused values are shown again, to be corrected.
    expect(page.html).toContain(`value="${escapeHtml(record.content)}"`);
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  // The API's JSON schema also bounds ttl and the name's form, and its validator answers those first
  // (400); the form has no schema, so the DNS rules module answers them (422).
  it.each([
    ["ttl", { ttl: "30" }, en.errors.ttl],
    ["name", { name: "my host" }, en.errors.name],
  ])("refuses a %s outside the schema (422), in words", async (field, change, message) => {
    const page = await addRecord({ type: "A", name: "www", content: "192.0.2.1", ...change });
    expect(page.status).toBe(422);
    expect(page.html).toContain(fieldError(`add-${field}`, message));
  });

  it("says every problem of a record at its own field at once", async () => {
    const page = await addRecord({ type: "A", name: "my host", content: "nowhere", ttl: "30" });
    expect(page.status).toBe(422);
    for (const [field, message] of [
      ["name", en.errors.name],
      ["content", en.errors.content.A],
      ["ttl", en.errors.ttl],
    ] as const)
      expect(page.html).toContain(fieldError(`add-${field}`, message));
  });

  it("refuses a record that conflicts with the zone with 409, naming the name", async () => {
    await addRecord({ type: "CNAME", name: "www", content: "example.net" });
    const page = await addRecord({ type: "A", name: "www", content: "192.0.2.1" });
    expect(page.status).toBe(409);
    expect(page.html).toContain(fieldError("add-name", en.errors.cnameHere("www")));
  });

  it("refuses a TTL that is not a number", async () => {
    const page = await addRecord({ type: "A", name: "@", content: "192.0.2.1", ttl: "soon" });
    expect(page.status).toBe(422);
    expect(page.html).toContain(fieldError("add-ttl", en.errors.ttl));
  });

  it("escapes record content wherever it is shown", async () => {
    await addRecord({ type: "TXT", name: "@", content: '<script>alert("x")</script>' });
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    expect(page.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page.html).not.toContain("<script>alert");
  });
});

describe("editing and deleting a record", () => {
  let recordId: string;
  /** The entity tag of the record as stored now: what a page showing it puts in its forms. */
  const shownTag = async () => entityTag((await signedIn.server.services.store.findRecord(recordId))!);
  beforeEach(async () => {
    await addRecord({ type: "MX", name: "@", content: "mail.adalovelace.com", priority: "10" });
    recordId = (await records())[0]!.id;
    signedIn.server.outbox.events.length = 0;
  });

  it("GET .../edit shows the record's values; POST saves them as the API's update does", async () => {
    const form = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`);
    expect(form.html).toContain('id="edit-content" name="content" value="mail.adalovelace.com"');
    expect(form.html).toContain('id="edit-priority" name="priority" value="10"');
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, {
      etag: await shownTag(),
      name: "@",
      content: "mx2.adalovelace.com",
      ttl: "600",
      priority: "20",
    });
    expect(textOf(page.html)).toContain("The MX record @ is saved.");
    expect(await records()).toMatchObject([{ id: recordId, type: "MX", content: "mx2.adalovelace.com", ttl: 600, priority: 20 }]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.updated"]);
  });

  it("keeps the type, whatever the form sends", async () => {
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`);
    await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, {
      etag: await shownTag(),
      type: "A",
      name: "@",
      content: "mx2.adalovelace.com",
      ttl: "600",
      priority: "20",
    });
    expect((await records())[0]!.type).toBe("MX");
  });

  it("shows an invalid edit's message and keeps the record", async () => {
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, {
      etag: await shownTag(),
      name: "@",
      content: "mail.adalovelace.com",
      ttl: "100000",
      priority: "10",
    });
    expect(page.status).toBe(422);
    expect(page.html).toContain(fieldError("edit-ttl", en.errors.ttl));
    expect((await records())[0]!.ttl).toBe(3600);
  });

  it("shows only the fields of the record's type when editing: priority for MX, none for A", async () => {
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`)).html).toContain('id="edit-priority"');
    await addRecord({ type: "A", name: "www", content: "192.0.2.1" });
    const a = (await records()).find((record) => record.type === "A")!;
    const form = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${a.id}/edit`);
    expect(form.html).not.toContain('id="edit-priority"');
    expect(form.html).toContain('<label for="edit-content">IPv4 address</label>');
  });

  it("asks before deleting, on a page of its own, deleting nothing until confirmed", async () => {
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/delete`);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("Delete the MX record @? This record stops answering as soon as it is deleted.");
    expect(textOf(page.html)).toContain("Type MX Name @ Value mail.adalovelace.com TTL 3,600 (1 hour) Priority 10");
    expect(page.html).toContain(`<input type="hidden" name="etag" value="${escapeHtml(await shownTag())}">`);
    expect(await records()).toHaveLength(1);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("deletes it once confirmed: dns_record.deleted emitted; restores it within ten minutes, once", async () => {
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/delete`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}/delete`, { etag: await shownTag() });
    expect(textOf(page.html)).toContain("The MX record @ is deleted. Restore it You can restore it for 10 minutes.");
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.deleted"]);
    const eventId = /name="event" value="([^"]+)"/.exec(page.html)![1]!;
    await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 540 } });
    const restored = await signedIn.browser.post(`/domains/${signedIn.domainId}/restore`, { event: eventId });
    expect(textOf(restored.html)).toContain("The MX record @ is restored.");
    expect(await records()).toMatchObject([{ type: "MX", name: "@", content: "mail.adalovelace.com", ttl: 3600, priority: 10 }]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.deleted", "dns_record.created"]);
    // Restoring twice would add it twice: the second is refused as a duplicate, in words.
    const again = await signedIn.browser.post(`/domains/${signedIn.domainId}/restore`, { event: eventId });
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain(en.errors.duplicate("MX", "@"));
    expect(await records()).toHaveLength(1);
  });

  it("restores nothing after ten minutes, and says so", async () => {
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/delete`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}/delete`, { etag: await shownTag() });
    const eventId = /name="event" value="([^"]+)"/.exec(page.html)![1]!;
    await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 600 } });
    // The notice no longer offers it, and a restore sent anyway is refused.
    expect((await signedIn.browser.get(new URL(page.url).pathname + new URL(page.url).search)).html).not.toContain('name="event"');
    const late = await signedIn.browser.post(`/domains/${signedIn.domainId}/restore`, { event: eventId });
    expect(late.status).toBe(422);
    expect(textOf(late.html)).toContain(en.deletion.tooLate);
    expect(await records()).toEqual([]);
  });

  it("restores only a deletion of this domain: another event or domain reads as not found", async () => {
    const other = (
      await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.io" } })
    ).data!.id;
    await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/delete`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}/delete`, { etag: await shownTag() });
    const eventId = /name="event" value="([^"]+)"/.exec(page.html)![1]!;
    await addRecord({ type: "A", name: "www", content: "192.0.2.1" });
    const created = signedIn.server.outbox.events.find((event) => event.type === "dns_record.created")!.id;
    const csrf = signedIn.browser.csrfToken();
    for (const [domainId, event] of [
      [other, eventId],
      [signedIn.domainId, created],
      [signedIn.domainId, "evt_unknown"],
    ] as const) {
      const refused = await signedIn.browser.post(`/domains/${domainId}/restore`, { event }, { csrf });
      expect(refused.status).toBe(404);
    }
    expect((await records()).map((record) => record.type)).toEqual(["A"]);
  });

  it("shows the entity tag of the record it edits in its form", async () => {
    const tag = escapeHtml(await shownTag());
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`)).html).toContain(
      `<input type="hidden" name="etag" value="${tag}">`,
    );
  });

  it("saves nothing over a change someone made meanwhile: tells the user, shows the current values, keeps their input", async () => {
    const opened = await shownTag();
    await signedIn.server.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: signedIn.domainId, record_id: recordId } },
      body: { content: "mx-by-partner.adalovelace.com" },
    });
    signedIn.server.outbox.events.length = 0;
    const mine = { name: "@", content: "mx-by-user.adalovelace.com", ttl: "600", priority: "20" };
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, { etag: opened, ...mine });
    expect(page.status).toBe(412);
    expect(textOf(page.html)).toContain("Someone else changed this record while you were editing it");
    expect(textOf(page.html)).toContain("mx-by-partner.adalovelace.com");
    expect(page.html).toContain('name="content" value="mx-by-user.adalovelace.com"');
    expect((await records())[0]!.content).toBe("mx-by-partner.adalovelace.com");
    expect(signedIn.server.outbox.events).toEqual([]);
    // The page now carries the current version: saving again is a deliberate choice, and it applies.
    expect(page.html).toContain(`<input type="hidden" name="etag" value="${escapeHtml(await shownTag())}">`);
    const again = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, { etag: await shownTag(), ...mine });
    expect(textOf(again.html)).toContain("The MX record @ is saved.");
    expect((await records())[0]!.content).toBe("mx-by-user.adalovelace.com");
  });

  it("deletes nothing that changed after the page was shown, and says so", async () => {
    const shown = await shownTag();
    await signedIn.server.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: signedIn.domainId, record_id: recordId } },
      body: { ttl: 900 },
    });
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}/delete`, { etag: shown });
    expect(textOf(page.html)).toContain("That record changed after this page was shown, so it was not deleted.");
    expect(await records()).toHaveLength(1);
  });

  it("refuses an edit whose form lacks the version it showed (a tampered form), changing nothing", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}`, {
      name: "@",
      content: "x.example",
      ttl: "600",
    });
    expect(page.status).toBe(400);
    expect((await records())[0]!.content).toBe("mail.adalovelace.com");
  });

  it("answers 404 for a record of another domain", async () => {
    const other = (
      await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.io" } })
    ).data!.id;
    expect((await signedIn.browser.get(`/domains/${other}/dns/${recordId}/edit`)).status).toBe(404);
  });
});

describe("templates", () => {
  it("labels each variable in words and previews the records with a placeholder in words", async () => {
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    expect(page.html).toContain('<label for="template-web-host-ip">Your server&#39;s IPv4 address</label>');
    expect(textOf(page.html)).toContain("A @ [Your server's IPv4 address]");
    expect(textOf(page.html)).toContain("CNAME www adalovelace.com");
    expect(page.html).not.toContain(">%ip%<");
    // The policy is a choice in words; an optional variable's default fills its place.
    expect(page.html).toContain('<option value="none" selected>Report only (none)</option>');
    expect(textOf(page.html)).toContain("TXT @ v=spf1 mx ~all");
  });

  it("reviews the exact records with the values given, adding nothing; then applies them as the API does", async () => {
    const review = await signedIn.browser.get(`/domains/${signedIn.domainId}/templates/web-host?variables.ip=192.0.2.10`);
    expect(review.status).toBe(200);
    expect(textOf(review.html)).toContain("Add Web host records to adalovelace.com?");
    expect(textOf(review.html)).toContain("A @ 192.0.2.10 300 CNAME www adalovelace.com 300");
    expect(await records()).toEqual([]);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "web-host",
      "variables.ip": "192.0.2.10",
    });
    expect(textOf(page.html)).toContain("Web host: 2 records added to adalovelace.com.");
    expect((await records()).map((record) => `${record.type} ${record.name} ${record.content}`)).toEqual([
      "A @ 192.0.2.10",
      "CNAME www adalovelace.com",
    ]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.created", "dns_record.created"]);
  });

  it("leaves empty optional variables to their defaults", async () => {
    await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "spf-dmarc",
      "variables.report_email": "dmarc@adalovelace.com",
      "variables.policy": "none",
      "variables.spf_include": "",
    });
    expect((await records()).map((record) => record.content)).toContain("v=DMARC1; p=none; rua=mailto:dmarc@adalovelace.com");
  });

  it.each([
    ["a missing variable", "", en.templates.variables.ip!.missing],
    ["a value of the wrong type", "not an address", en.errors.variableFormat.ipv4!],
  ])("says %s in words next to it, in the template's open form, adding nothing", async (_case, ip, message) => {
    for (const page of [
      await signedIn.browser.get(`/domains/${signedIn.domainId}/templates/web-host?variables.ip=${encodeURIComponent(ip)}`),
      await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, { template_id: "web-host", "variables.ip": ip }),
    ]) {
      expect(page.status).toBe(422);
      expect(page.html).toContain('<details class="template" id="template-web-host" open>');
      expect(page.html).toContain(fieldError("template-web-host-ip", message));
    }
    expect(await records()).toEqual([]);
  });

  it("is all or nothing: a conflict is named at the review, and creates none of the records (409)", async () => {
    await addRecord({ type: "CNAME", name: "www", content: "example.net" });
    signedIn.server.outbox.events.length = 0;
    const review = await signedIn.browser.get(`/domains/${signedIn.domainId}/templates/web-host?variables.ip=192.0.2.10`);
    expect(review.status).toBe(409);
    expect(textOf(review.html)).toContain(en.errors.cnameTaken("www"));
    expect(review.html).not.toContain('action="/domains/');
    await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "web-host",
      "variables.ip": "192.0.2.10",
    });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain(en.errors.cnameTaken("www"));
    expect(await records()).toHaveLength(1);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("answers 404 for a template not in the catalogue", async () => {
    expect((await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, { template_id: "nope" })).status).toBe(404);
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/templates/nope`)).status).toBe(404);
  });
});
