/**
 * The record types for websites in the embedded interface: each in the type choice with its help,
 * added and edited through the same rules as the API, and each rule of theirs said in words at its field.
 */
import { describe, expect, it } from "vitest";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { entityTag } from "../../../server/platform/entity-tags.js";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });

const records = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })).data!.records;
const addRecord = (fields: Record<string, string>) =>
  signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, { type: "A", name: "@", content: "", ttl: "3600", priority: "", ...fields });
const fieldError = (id: string, message: string) =>
  `id="${id}-error"><span class="visually-hidden">Error: </span>${escapeHtml(message)}</p>`;
const NEW_TYPES = ["ALIAS", "CAA", "HTTPS", "SVCB", "TLSA"] as const;
const SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("the add form", () => {
  it("offers each new type with its label, and gives the script each type's one line of help", async () => {
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    for (const type of NEW_TYPES) {
      expect(page.html).toContain(`<option value="${type}">${escapeHtml(`${type}: ${en.dns.typeLabels[type]}`)}</option>`);
      expect(page.html).toContain(escapeHtml(JSON.stringify(en.dns.typeHints[type]).slice(1, -1)));
    }
  });
});

describe("adding and editing", () => {
  it.each([
    ["CAA", "@", "0 ISSUE letsencrypt.org", '0 issue "letsencrypt.org"', null],
    ["ALIAS", "@", "Site.Example.net.", "site.example.net", null],
    ["HTTPS", "@", "1 . port=443 alpn=h2,h3", "1 . alpn=h2,h3 port=443", 1],
    ["SVCB", "_8443._foo", "2 svc.example.net port=8443", "2 svc.example.net port=8443", 2],
    ["TLSA", "_443._tcp.www", `3 1 1 ${SHA256.toUpperCase()}`, `3 1 1 ${SHA256}`, null],
  ] as const)("adds a %s record as the API stores it", async (type, name, content, stored, priority) => {
    const page = await addRecord({ type, name, content });
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(`The ${type} record ${name} is added to adalovelace.com.`);
    expect(await records()).toMatchObject([{ type, name, content: stored, priority }]);
  });

  it("edits an HTTPS record with its content's fields only, its priority coming from the content", async () => {
    await addRecord({ type: "HTTPS", name: "@", content: "1 . alpn=h2" });
    const record = (await records())[0]!;
    const form = await signedIn.browser.get(`/domains/${signedIn.domainId}/dns/${record.id}/edit`);
    expect(form.html).not.toContain('id="edit-priority"');
    expect(form.html).toContain(`<label for="edit-content">${en.dns.typeLabels.HTTPS}</label>`);
    const saved = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns/${record.id}`, {
      etag: entityTag((await signedIn.server.services.store.findRecord(record.id))!),
      name: "@",
      content: "2 . alpn=h3",
      ttl: "3600",
    });
    expect(saved.status).toBe(200);
    expect(await records()).toMatchObject([{ type: "HTTPS", content: "2 . alpn=h3", priority: 2 }]);
  });
});

describe("refusals in words", () => {
  it.each([
    [
      "a CAA record with an unknown tag",
      { type: "CAA", name: "@", content: '0 issuemail "example.com"' },
      "content",
      en.errors.content.CAA,
      422,
    ],
    ["an ALIAS off the root", { type: "ALIAS", name: "www", content: "site.example.net" }, "name", en.recordTypes.aliasAtRoot, 422],
    [
      "an HTTPS record with a key twice",
      { type: "HTTPS", name: "@", content: "1 . alpn=h2 alpn=h3" },
      "content",
      en.errors.content.HTTPS,
      422,
    ],
    [
      "an SVCB record in AliasMode with params",
      { type: "SVCB", name: "_x", content: "0 svc.example.net port=1" },
      "content",
      en.errors.content.SVCB,
      422,
    ],
    ["a TLSA digest too short", { type: "TLSA", name: "_443._tcp", content: "3 1 1 abcd" }, "content", en.errors.content.TLSA, 422],
    [
      "a TLSA record without port and protocol",
      { type: "TLSA", name: "www", content: `3 1 1 ${SHA256}` },
      "name",
      en.recordTypes.tlsaName,
      422,
    ],
    [
      "an HTTPS priority other than the content's",
      { type: "HTTPS", name: "@", content: "1 . alpn=h2", priority: "2" },
      "priority",
      en.recordTypes.priorityInContent,
      422,
    ],
  ] as const)("refuses %s", async (_why, fields, field, message, status) => {
    const page = await addRecord(fields);
    expect(page.status).toBe(status);
    expect(page.html).toContain(fieldError(`add-${field}`, message));
    expect(await records()).toEqual([]);
  });

  it("refuses an ALIAS beside the root's A record, and an A beside its ALIAS (409)", async () => {
    await addRecord({ type: "A", name: "@", content: "192.0.2.1" });
    const alias = await addRecord({ type: "ALIAS", name: "@", content: "site.example.net" });
    expect(alias.status).toBe(409);
    expect(alias.html).toContain(fieldError("add-name", en.recordTypes.aliasBeside("@")));
    const a = (await records())[0]!;
    await signedIn.server.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: signedIn.domainId, record_id: a.id } },
    });
    await addRecord({ type: "ALIAS", name: "@", content: "site.example.net" });
    const page = await addRecord({ type: "AAAA", name: "@", content: "2001:db8::1" });
    expect(page.status).toBe(409);
    expect(page.html).toContain(fieldError("add-name", en.recordTypes.aliasHere("@")));
  });
});
