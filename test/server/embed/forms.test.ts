/**
 * Form input of the embedded interface, for every form: each field is read once and holds plain text,
 * and what the pages show never carries a control character, whatever was stored before.
 */
import { describe, expect, it } from "vitest";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { escapeHtml } from "../../../server/web/html.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

let recordId: string;
const signedIn = useSignedInUser({
  prepare: async (server, domainId) => {
    recordId = (
      await server.api.POST("/api/v1/domains/{domain_id}/dns", {
        params: { path: { domain_id: domainId } },
        body: { type: "MX", name: "@", content: "mail.adalovelace.com", priority: 10 },
      })
    ).data!.id;
  },
  startPage: (domainId) => `/domains/${domainId}`,
});

/** What a refused form must leave as it was: the user's domains (settings, expiry), records and spending. */
async function userState() {
  const user = (await signedIn.server.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!;
  const domains = (
    await signedIn.server.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })
  ).data!.domains;
  const records = (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } }))
    .data!.records;
  return { totalSpent: user.total_spent, domains, records };
}

type Fields = Record<string, string | readonly string[]>;

describe("a field sent more than once", () => {
  const record = { type: "A", name: "www", content: "192.0.2.1", ttl: "3600", priority: "" };
  it.each<[string, () => string, Fields, string]>([
    ["a renewal", () => `/domains/${signedIn.domainId}/renew`, { years: ["1", "2"] }, "years"],
    ["a settings switch", () => `/domains/${signedIn.domainId}/settings`, { auto_renew: ["false", "true"] }, "auto_renew"],
    ["a purchase's years", () => "/purchase", { domain_name: "babbage.com", years: ["1", "5"] }, "years"],
    ["a purchase's name", () => "/purchase", { domain_name: ["babbage.com", "babbage.io"], years: "1" }, "domain_name"],
    ["a new record's type", () => `/domains/${signedIn.domainId}/dns`, { ...record, type: ["A", "TXT"] }, "type"],
    ["a new record's content", () => `/domains/${signedIn.domainId}/dns`, { ...record, content: ["192.0.2.1", "192.0.2.2"] }, "content"],
    ["a new record's ttl", () => `/domains/${signedIn.domainId}/dns`, { ...record, ttl: ["300", "600"] }, "ttl"],
    [
      "an edited record's priority",
      () => `/domains/${signedIn.domainId}/dns/${recordId}`,
      { name: "@", content: "mail.adalovelace.com", ttl: "3600", priority: ["10", "20"] },
      "priority",
    ],
    [
      "a template's variable",
      () => `/domains/${signedIn.domainId}/templates`,
      { template_id: "web-host", "variables.ip": ["192.0.2.1", "192.0.2.2"] },
      "variables.ip",
    ],
    [
      "a template's id",
      () => `/domains/${signedIn.domainId}/templates`,
      { template_id: ["web-host", "web-host"], "variables.ip": "192.0.2.1" },
      "template_id",
    ],
  ])("is refused in %s with 400 and the field's error, changing nothing", async (_form, path, fields, field) => {
    const before = await userState();
    const page = await signedIn.browser.post(path(), fields);
    expect(page.status).toBe(400);
    expect(page.redirects).toEqual([]);
    // Said in the user's words at the field (a form the pages make never repeats one), never the API's.
    expect(textOf(page.html)).toContain(en.errors.reload);
    expect(textOf(page.html)).not.toContain(`${field} must be given once`);
    expect(await userState()).toEqual(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("is refused next to the field it concerns", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/renew`, { years: ["1", "2"] });
    expect(page.html).toContain(
      `id="renew-${signedIn.domainId}-years-error"><span class="visually-hidden">Error: </span>${escapeHtml(en.errors.reload)}</p>`,
    );
  });

  it("is refused in the search form too (GET /search?q=...&q=...)", async () => {
    const page = await signedIn.browser.get("/search?q=babbage.com&q=babbage.io");
    expect(page.status).toBe(400);
    expect(page.html).toContain(`id="search-q-error"><span class="visually-hidden">Error: </span>${escapeHtml(en.errors.reload)}</p>`);
  });
});

describe("a control character in a field", () => {
  it.each([
    ["ESC", "\u001b"],
    ["NUL", "\u0000"],
    ["TAB", "\t"],
    ["a C1 control", "\u009b"],
  ])("is refused (%s) with 400 and the field's message, storing nothing", async (_name, character) => {
    const before = await userState();
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/dns`, {
      type: "TXT",
      name: "@",
      content: `v=spf1${character}-all`,
      ttl: "3600",
      priority: "",
    });
    expect(page.status).toBe(400);
    expect(page.html).toContain(`id="add-content-error"><span class="visually-hidden">Error: </span>${en.errors.plainText}</p>`);
    expect(await userState()).toEqual(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });
});

describe("the bytes of a form", () => {
  /** A same-origin form post of a body as given, with the session's cookie and CSRF token. */
  const postRaw = (path: string, body: string, contentType = "application/x-www-form-urlencoded") =>
    fetch(`${signedIn.server.embedUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: signedIn.browser.cookie!, "content-type": contentType, "sec-fetch-site": "same-origin" },
      body: `${body}&_csrf=${signedIn.browser.csrfToken()}`,
    });

  it.each([
    ["a percent-escape that is not UTF-8 (Latin-1 é)", "caf%E9"],
    ["an overlong escape", "%C0%AF"],
    ["a truncated escape", "%E2%82"],
  ])("refuses %s with 400 instead of storing U+FFFD", async (_what, content) => {
    const before = await userState();
    const response = await postRaw(`/domains/${signedIn.domainId}/dns`, `type=TXT&name=%40&content=${content}&ttl=3600&priority=`);
    expect(response.status).toBe(400);
    expect(await userState()).toEqual(before);
  });

  it("refuses a form declared in another charset with 415", async () => {
    const response = await postRaw(
      `/domains/${signedIn.domainId}/dns`,
      "type=TXT&name=%40&content=caf%E9&ttl=3600&priority=",
      "application/x-www-form-urlencoded; charset=iso-8859-1",
    );
    expect(response.status).toBe(415);
  });

  it("takes UTF-8 text beyond ASCII as it was sent", async () => {
    const response = await postRaw(
      `/domains/${signedIn.domainId}/dns`,
      `type=TXT&name=%40&content=${encodeURIComponent("café 受")}&ttl=3600&priority=`,
    );
    expect(response.status).toBe(303);
    expect((await userState()).records.map((record) => record.content)).toContain("café 受");
  });
});

describe("what the pages show", () => {
  it("never carries a control character, even from a record stored before they were refused: each shows as U+FFFD", async () => {
    const stored = (await signedIn.server.services.store.findRecord(recordId))!;
    await signedIn.server.services.store.saveRecord({ ...stored, type: "TXT", content: "evil\u001b[2J\u0001\u0085end", priority: null });
    for (const path of [`/domains/${signedIn.domainId}`, `/domains/${signedIn.domainId}/dns/${recordId}/edit`]) {
      const page = await signedIn.browser.get(path);
      expect(page.status).toBe(200);
      expect(page.html).toContain("evil\uFFFD[2J\uFFFD\uFFFDend");
      // The pages' own markup has line breaks; nothing else of category Cc may appear.
      expect(page.html.replace(/\n/g, "")).not.toMatch(/\p{Cc}/u);
    }
  });

  it.each([
    ["a\u0000b", "a\uFFFDb"],
    ["tab\there", "tab\uFFFDhere"],
    ["line\nbreak\r", "line\uFFFDbreak\uFFFD"],
    ["del\u007f c1\u0080\u009f", "del\uFFFD c1\uFFFD\uFFFD"],
    ['<a href="x">&\'', "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"],
    ["é 受 😀 \u00a0", "é 受 😀 \u00a0"],
  ])("escapeHtml(%j) is %j", (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });
});
