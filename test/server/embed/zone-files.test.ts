/**
 * A domain's zone file in the embedded interface: the download (the API's export, byte for byte),
 * and the import: a file or pasted text, previewed line by line, then applied exactly as previewed,
 * never over a zone changed since the preview, never changing the partner's locked records, and
 * only through a form of the session's own (CSRF).
 */
import { describe, expect, it } from "vitest";
import { de } from "../../../server/embed/i18n/messages-de.js";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf, type EmbedPage } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });
const PARTNER = "partner_a";

const ZONE = `$ORIGIN adalovelace.com.
$TTL 3600
@       IN SOA ns1.partner-dns.invalid. hostmaster.adalovelace.com. 1 7200 3600 1209600 3600
@       IN NS  ns1.partner-dns.invalid.
@          A   192.0.2.10
www        CNAME adalovelace.com.
@          MX  10 mail.example.net.
@          TXT "v=spf1 include:_spf.example.net -all"
`;

const records = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })).data!.records;
const createThroughApi = async (body: Record<string, unknown>) =>
  (
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: body as never,
    })
  ).data!;

interface Upload {
  fields: Record<string, string>;
  file?: { name: string; content: string | Uint8Array<ArrayBuffer> };
  csrf?: string | null;
  headers?: Record<string, string>;
}

/** Posts a multipart form as a browser does (a file input makes the forms multipart), then follows the redirect with the browser. */
async function postForm(path: string, upload: Upload): Promise<EmbedPage> {
  const { browser } = signedIn;
  const form = new FormData();
  const csrf = upload.csrf === undefined ? browser.csrfToken() : upload.csrf;
  if (csrf !== null) form.append("_csrf", csrf);
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  if (upload.file) form.append("zone_file_upload", new Blob([upload.file.content], { type: "text/dns" }), upload.file.name);
  const response = await fetch(new URL(path, browser.embedUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { cookie: browser.cookie!, "sec-fetch-site": "same-origin", origin: "null", ...upload.headers },
  });
  if (response.status === 303) return browser.get(response.headers.get("location")!);
  const page = { status: response.status, html: await response.text(), headers: response.headers, url: response.url, redirects: [] };
  browser.lastPage = page;
  return page;
}

const preview = (upload: Upload) => postForm(`/domains/${signedIn.domainId}/zone/preview`, upload);

/** The apply form's fields, as the preview page made them. */
function applyFields(page: EmbedPage): Record<string, string> {
  const form = /<form method="post" action="[^"]+\/zone\/apply"[\s\S]*?<\/form>/.exec(page.html)?.[0];
  if (!form) throw new Error("the preview offers no apply form");
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    if (name !== "_csrf") fields[name!] = value!;
  return fields;
}

const apply = (page: EmbedPage) => postForm(`/domains/${signedIn.domainId}/zone/apply`, { fields: applyFields(page) });

describe("the domain's page", () => {
  it("offers the download and the import form, multipart, with both modes, the replace warning and the size limit", async () => {
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    expect(page.html).toContain(`<a href="/domains/${signedIn.domainId}/zone" download class="button">${en.zoneFiles.download}</a>`);
    expect(page.html).toContain(`action="/domains/${signedIn.domainId}/zone/preview" enctype="multipart/form-data"`);
    expect(page.html).toMatch(/<input type="file" id="zone-upload" name="zone_file_upload"/);
    expect(page.html).toMatch(/<textarea id="zone-text" name="zone_text"/);
    expect(page.html).toContain(`id="zone-mode-merge" name="mode" value="merge" checked`);
    expect(page.html).toContain(`id="zone-mode-replace" name="mode" value="replace" aria-describedby="zone-mode-replace-hint"`);
    expect(textOf(page.html)).toContain(en.zoneFiles.replaceWarning(PARTNER));
    expect(textOf(page.html)).toContain(en.zoneFiles.fileHint("512 KB"));
  });
});

describe("the download", () => {
  it("is the API's export, byte for byte, as an attachment of type text/dns", async () => {
    await createThroughApi({ type: "A", name: "@", content: "192.0.2.10" });
    await createThroughApi({ type: "TXT", name: "@", content: "x".repeat(300) });
    const response = await fetch(new URL(`/domains/${signedIn.domainId}/zone`, signedIn.browser.embedUrl), {
      headers: { cookie: signedIn.browser.cookie! },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/dns/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="?adalovelace\.com\.zone"?$/);
    const body = Buffer.from(await response.arrayBuffer());
    const api = await signedIn.server.api.GET("/api/v1/domains/{domain_id}/zone", {
      params: { path: { domain_id: signedIn.domainId } },
      parseAs: "arrayBuffer",
    });
    expect(api.response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(api.response.headers.get("content-disposition"));
    expect(body.equals(Buffer.from(api.data as unknown as ArrayBuffer))).toBe(true);
    expect(body.toString()).toContain("$ORIGIN adalovelace.com.");
  });

  it("of another user's domain is not found", async () => {
    await signedIn.server.api.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    const other = (await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u2", domain_name: "grace.dev" } }))
      .data!;
    const page = await signedIn.browser.get(`/domains/${other.id}/zone`);
    expect(page.status).toBe(404);
  });
});

describe("the import", () => {
  it("previews an uploaded file line by line, changing nothing, then applies it and announces it", async () => {
    const page = await preview({ fields: { zone_text: "", mode: "merge" }, file: { name: "adalovelace.com.zone", content: ZONE } });
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain(en.zoneFiles.previewTitle("adalovelace.com"));
    expect(text).toContain(`3 ${en.zoneFiles.actions.skip} SOA @ ${en.zoneFiles.reasons.soa}`);
    expect(text).toContain(`4 ${en.zoneFiles.actions.skip} NS @`);
    expect(text).toContain(`5 ${en.zoneFiles.actions.create} A @ 192.0.2.10`);
    expect(text).toContain(`6 ${en.zoneFiles.actions.create} CNAME www`);
    expect(text).toContain(`8 ${en.zoneFiles.actions.create} TXT @`);
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events).toEqual([]);

    const done = await apply(page);
    expect(done.status).toBe(200);
    expect(textOf(done.html)).toContain(en.zoneFiles.imported(4, "adalovelace.com"));
    expect((await records()).map((record) => `${record.type} ${record.name}`).sort()).toEqual(["A @", "CNAME www", "MX @", "TXT @"]);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(Array(4).fill("dns_record.created"));
  });

  it("reads pasted text, and replace deletes what the file lacks (after a preview that says so)", async () => {
    await createThroughApi({ type: "A", name: "old", content: "192.0.2.99" });
    const page = await preview({ fields: { zone_text: "@ 3600 IN A 192.0.2.10\n", mode: "replace" } });
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(`${en.zoneFiles.notInFile} ${en.zoneFiles.actions.delete} A old 192.0.2.99`);
    expect(page.html).toContain(`class="danger">${en.zoneFiles.apply(2)}</button>`);
    await apply(page);
    expect((await records()).map((record) => record.name)).toEqual(["@"]);
  });

  it("keeps the partner's locked records: replace leaves them, and a line that would change one is refused", async () => {
    await createThroughApi({ type: "TXT", name: "_verify", content: "token-1", locked: true });
    const kept = await preview({ fields: { zone_text: "@ 3600 IN A 192.0.2.10\n", mode: "replace" } });
    expect(textOf(kept.html)).toContain(`${en.zoneFiles.actions.skip} TXT _verify token-1 ${en.zoneFiles.reasons.locked(PARTNER)}`);
    await apply(kept);
    expect((await records()).map((record) => record.name).sort()).toEqual(["@", "_verify"]);

    const refused = await preview({ fields: { zone_text: '_verify 60 IN TXT "token-1"\n', mode: "merge" } });
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain(en.zoneFiles.refusedLine(1, en.zoneFiles.problems.record_locked(PARTNER)));
    expect(refused.html).not.toContain("/zone/apply");
  });

  it("refuses a bad file with an error summary naming each line in the user's words, and offers no apply", async () => {
    const page = await preview({
      fields: { zone_text: "$INCLUDE other.zone\nwww 3600 IN A 192.0.2.300\n@ 3600 CH A 192.0.2.1\n", mode: "merge" },
    });
    expect(page.status).toBe(422);
    expect(page.html).toMatch(/<div class="error-summary" role="alert" tabindex="-1"><h2>The zone file cannot be imported<\/h2>/);
    const text = textOf(page.html);
    expect(text).toContain(en.zoneFiles.refusedLine(1, en.zoneFiles.problems.include_not_supported));
    expect(text).toContain(en.zoneFiles.refusedLine(3, en.zoneFiles.problems.unsupported_class));
    expect(text).toMatch(/Line 2: (Enter an IPv4 address|The value does not fit)/);
    expect(page.html).not.toContain("/zone/apply");
    expect(await records()).toEqual([]);
  });

  it("speaks the user's language: German lines and reasons", async () => {
    const chosen = await signedIn.server.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale: "de-DE" } });
    await signedIn.browser.open(chosen.data!.login_url);
    await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    const page = await preview({ fields: { zone_text: "$INCLUDE other.zone\n", mode: "merge" } });
    expect(textOf(page.html)).toContain(de.zoneFiles.refusedLine(1, de.zoneFiles.problems.include_not_supported));
  });

  it("refuses an empty form, and a file with pasted text, at the form on the domain's page", async () => {
    const empty = await preview({ fields: { zone_text: "  ", mode: "merge" } });
    expect(empty.status).toBe(422);
    expect(empty.html).toContain(`<details class="zone-import" open>`);
    expect(textOf(empty.html)).toContain(`${en.zoneFiles.notPreviewed} ${en.zoneFiles.missing}`);
    const both = await preview({ fields: { zone_text: "@ A 192.0.2.1", mode: "merge" }, file: { name: "z.zone", content: ZONE } });
    expect(textOf(both.html)).toContain(en.zoneFiles.both);
    expect(both.html).toContain(escapeHtml("@ A 192.0.2.1"));
  });

  it("refuses a file over the limit (413) and a file that is not UTF-8", async () => {
    const large = await preview({ fields: { mode: "merge" }, file: { name: "z.zone", content: `; ${"x".repeat(600 * 1024)}\n` } });
    expect(large.status).toBe(413);
    expect(textOf(large.html)).toContain(en.zoneFiles.tooLarge("512 KB"));
    const binary = await preview({
      fields: { mode: "merge" },
      file: { name: "z.zone", content: new Uint8Array([0xff, 0xfe, 0x41, 0x0a]) },
    });
    expect(binary.status).toBe(422);
    expect(textOf(binary.html)).toContain(en.zoneFiles.unreadable);
  });

  it("does not apply over a zone changed since the preview: nothing is written, and the new preview says why", async () => {
    const page = await preview({ fields: { zone_text: "@ 3600 IN A 192.0.2.10\n", mode: "replace" } });
    await createThroughApi({ type: "A", name: "meanwhile", content: "192.0.2.50" });
    signedIn.server.outbox.events.length = 0;
    const again = await apply(page);
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain(en.zoneFiles.changedSincePreview);
    expect(textOf(again.html)).toContain(`${en.zoneFiles.actions.delete} A meanwhile`);
    expect((await records()).map((record) => record.name)).toEqual(["meanwhile"]);
    expect(signedIn.server.outbox.events).toEqual([]);
    // The new preview's own form applies against the zone as it is now.
    await apply(again);
    expect((await records()).map((record) => record.name)).toEqual(["@"]);
  });

  it("does not apply a text other than the one previewed", async () => {
    const page = await preview({ fields: { zone_text: "@ 3600 IN A 192.0.2.10\n", mode: "merge" } });
    const fields = { ...applyFields(page), zone_file: Buffer.from("@ 3600 IN A 192.0.2.66\n").toString("base64") };
    const answer = await postForm(`/domains/${signedIn.domainId}/zone/apply`, { fields });
    expect(answer.status).toBe(409);
    expect(await records()).toEqual([]);
  });

  it("refuses a preview or an apply without the session's CSRF token (403), changing nothing", async () => {
    const page = await preview({ fields: { zone_text: "@ 3600 IN A 192.0.2.10\n", mode: "merge" } });
    const fields = applyFields(page);
    const csrf = signedIn.browser.csrfToken();
    for (const upload of [
      { fields, csrf: null },
      { fields, csrf: "x".repeat(43) },
      { fields, csrf, headers: { "sec-fetch-site": "cross-site" } },
    ]) {
      const answer = await postForm(`/domains/${signedIn.domainId}/zone/apply`, upload);
      expect(answer.status).toBe(403);
    }
    const refusedPreview = await postForm(`/domains/${signedIn.domainId}/zone/preview`, {
      fields: { zone_text: "@ A 192.0.2.1", mode: "merge" },
      csrf: null,
    });
    expect(refusedPreview.status).toBe(403);
    expect(await records()).toEqual([]);
    expect(signedIn.server.outbox.events).toEqual([]);
  });
});
