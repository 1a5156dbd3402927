/** DNS records in the embedded interface: the API's rules and messages, because both use one module. */
import { entityTag } from "../../../server/concurrency/entity-tags.js";
import { beforeEach, describe, expect, it } from "vitest";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });

const records = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })).data!.records;
const addRecord = (fields: Record<string, string>) =>
  signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, { type: "A", name: "@", content: "", ttl: "3600", priority: "", ...fields });
/** What the API answers for the same record: its message and field. */
const apiRefusal = async (record: { type: string; name: string; content: string; ttl: number; priority?: number }) => {
  const { error, response } = await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
    params: { path: { domain_id: signedIn.domainId } },
    body: record as never,
  });
  return { status: response.status, ...(error as { message: string; details: { field: string } }) };
};
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("GET /domains/{id}", () => {
  it("shows the domain, its records, the add form and the template catalogue", async () => {
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 },
    });
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Status Active Expires 2027-11-22 Auto-renew On WHOIS privacy On");
    expect(text).toContain("MX @ → points to mail.adalovelace.com TTL 300 · priority 10");
    expect(page.html).toContain('<label for="add-type">Type</label>');
    expect(text).toContain("Google Workspace");
    expect(text).toContain("Apply SPF and DMARC");
  });
});

describe("POST /domains/{id}/dns", () => {
  it("adds an MX record as the API does: stored, dns_record.created emitted, listed", async () => {
    const page = await addRecord({ type: "MX", name: "@", content: "mail.adalovelace.com", priority: "10" });
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("The record is added to adalovelace.com.");
    expect(await records()).toMatchObject([{ type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10, ttl: 3600 }]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.created"]);
  });

  it.each<[string, { type: string; name: string; content: string; ttl: number; priority?: number }, string]>([
    ["an MX record whose content is not a host name", { type: "MX", name: "@", content: "not a host", ttl: 3600, priority: 10 }, "content"],
    ["an MX record without priority", { type: "MX", name: "@", content: "mail.adalovelace.com", ttl: 3600 }, "priority"],
    ["an A record with an IPv6 address", { type: "A", name: "www", content: "2001:db8::1", ttl: 3600 }, "content"],
    ["a CNAME at the root", { type: "CNAME", name: "@", content: "example.net", ttl: 3600 }, "name"],
    ["an AAAA record with an IPv4-mapped address", { type: "AAAA", name: "www", content: "::ffff:192.0.2.1", ttl: 3600 }, "content"],
    ["an SRV record with three parts", { type: "SRV", name: "_sip._tcp", content: "10 5 sip.adalovelace.com", ttl: 3600 }, "content"],
    ["priority on an A record", { type: "A", name: "www", content: "192.0.2.1", ttl: 3600, priority: 5 }, "priority"],
    ["a TXT string over 255 characters", { type: "TXT", name: "@", content: "x".repeat(256), ttl: 3600 }, "content"],
  ])("refuses %s with the API's status and message, next to the API's field", async (_case, record, field) => {
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
    expect(page.html).toMatch(
      new RegExp(`id="add-${field}-error"><span class="visually-hidden">Error: </span>${escapeRegExp(escapeHtml(api.message))}</p>`),
    );
    expect(page.html).toContain(`aria-invalid="true"`);
    expect(textOf(page.html)).toContain(`The record was not added ${api.message}`);
    // The refused values are shown again, to be corrected.
    expect(page.html).toContain(`value="${escapeHtml(record.content)}"`);
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  // The API's JSON schema also bounds ttl and the name's form, and its validator answers those first (400,
  // in the validator's words); the form has no schema, so the DNS rules module answers them, in its words.
  it.each([
    ["ttl", { ttl: "30" }, "ttl must be between 60 and 86400 seconds"],
    ["name", { name: "my host" }, "name must be 1 to 253 characters of letters, digits, hyphens and dots"],
  ])("refuses a %s outside the schema with the DNS rules' message (422)", async (field, change, message) => {
    const page = await addRecord({ type: "A", name: "www", content: "192.0.2.1", ...change });
    expect(page.status).toBe(422);
    expect(page.html).toContain(`id="add-${field}-error"><span class="visually-hidden">Error: </span>${message}`);
  });

  it("refuses a record that conflicts with the zone with 409 and the API's message", async () => {
    await addRecord({ type: "CNAME", name: "www", content: "example.net" });
    const page = await addRecord({ type: "A", name: "www", content: "192.0.2.1" });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain("A CNAME record already exists at www; no other record can share its name");
  });

  it("refuses a TTL that is not a number", async () => {
    const page = await addRecord({ type: "A", name: "@", content: "192.0.2.1", ttl: "soon" });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain("ttl must be a whole number");
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
    expect(textOf(page.html)).toContain("The record of adalovelace.com is saved.");
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
    expect(page.html).toContain(
      'id="edit-ttl-error"><span class="visually-hidden">Error: </span>ttl must be between 60 and 86400 seconds</p>',
    );
    expect((await records())[0]!.ttl).toBe(3600);
  });

  it("deletes it: dns_record.deleted emitted", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${recordId}/delete`, { etag: await shownTag() });
    expect(textOf(page.html)).toContain("The record is deleted from adalovelace.com.");
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["dns_record.deleted"]);
  });

  it("shows the entity tag of the record it edits and of each record it lists in their forms", async () => {
    const tag = escapeHtml(await shownTag());
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${recordId}/edit`)).html).toContain(
      `<input type="hidden" name="etag" value="${tag}">`,
    );
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}`)).html).toContain(
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
    expect(textOf(again.html)).toContain("The record of adalovelace.com is saved.");
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

describe("POST /domains/{id}/templates", () => {
  it("applies a template with its variables: every record created, as the API's template operation does", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "web-host",
      "variables.ip": "192.0.2.10",
    });
    expect(textOf(page.html)).toContain("The template's records are added to adalovelace.com.");
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
      "variables.policy": "",
      "variables.spf_include": "",
    });
    expect((await records()).map((record) => record.content)).toContain("v=DMARC1; p=none; rua=mailto:dmarc@adalovelace.com");
  });

  it("shows a missing variable's message next to it, in the template's open form, creating nothing", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, { template_id: "web-host", "variables.ip": "" });
    expect(page.status).toBe(422);
    expect(page.html).toContain('<details class="template" id="template-web-host" open>');
    expect(page.html).toContain(
      'id="template-web-host-ip-error"><span class="visually-hidden">Error: </span>Template web-host requires the variable ip</p>',
    );
    expect(await records()).toEqual([]);
  });

  it("is all or nothing: a conflict creates none of the records (409)", async () => {
    await addRecord({ type: "CNAME", name: "www", content: "example.net" });
    signedIn.server.outbox.events.length = 0;
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, {
      template_id: "web-host",
      "variables.ip": "192.0.2.10",
    });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain("Template web-host: A CNAME record cannot share its name www with other records");
    expect(await records()).toHaveLength(1);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("answers 404 for a template not in the catalogue", async () => {
    expect((await signedIn.browser.post(`/domains/${signedIn.domainId}/templates`, { template_id: "nope" })).status).toBe(404);
  });
});
