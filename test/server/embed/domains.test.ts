/** Your domains in the embedded interface: the list, the switches and renewal, through the API's own logic. */
import { escapeHtml } from "../../../server/web/html.js";
import { entityTag } from "../../../server/platform/entity-tags.js";
import { describe, expect, it } from "vitest";
import { EmbedBrowser, textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: () => "/domains" });

/** The entity tag of the domain as stored now: what a page showing it puts in its switches. */
const domainTag = async (domainId = signedIn.domainId) => entityTag((await signedIn.server.services.store.findDomain(domainId))!);

const getDomain = async () =>
  (await signedIn.server.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: signedIn.domainId } } })).data!;
const totalSpent = async () =>
  (await signedIn.server.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!.total_spent;

describe("paths", () => {
  it.each(["/domains/dom%00", "/domains/dom%01/dns/rec%00/edit", "/domains?notice=settings&domain=dom%00"])(
    "take an id holding a control character as an unknown one: %s",
    async (path) => {
      const page = await signedIn.browser.get(path);
      expect(page.status).toBe(path.includes("?") ? 200 : 404);
    },
  );

  it.each(["/Domains", "/DOMAINS", "/domains/", "/domains//"])(
    "serve each page at one spelling: %s is not the domain list",
    async (path) => {
      expect((await signedIn.browser.get("/domains")).status).toBe(200);
      expect((await signedIn.browser.get(path)).status).toBe(404);
    },
  );
});

describe("GET /domains", () => {
  it("lists each domain with status, expiry, record count, switches and a renew form", async () => {
    const page = await signedIn.browser.get("/domains");
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Status Active Expires November 22, 2027 DNS records 0 records of adalovelace.com");
    expect(page.html).toContain('role="switch" aria-checked="true" name="auto_renew" value="false"');
    // Turning WHOIS privacy off asks first: its switch opens the warning page.
    expect(page.html).toContain(
      `<form method="get" action="/domains/${signedIn.domainId}/whois-privacy" class="switch-form"><button type="submit" class="switch" role="switch" aria-checked="true">`,
    );
    expect(page.html).toContain(`<label for="renew-${signedIn.domainId}-years">Renew adalovelace.com for</label>`);
    expect(text).toContain("$14.99 per year");
    // The renewal is a review first: a GET form.
    expect(page.html).toContain(`<form method="get" action="/domains/${signedIn.domainId}/renew"`);
  });

  it("shows only the session user's domains", async () => {
    await signedIn.server.api.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u2", domain_name: "babbage.com" } });
    const page = await signedIn.browser.get("/domains");
    expect(page.html).toContain("adalovelace.com");
    expect(page.html).not.toContain("babbage.com");
  });

  it("says when there are none, with a way to find one", async () => {
    const other = new EmbedBrowser(signedIn.server.embedUrl);
    await other.open(await signedIn.server.loginUrl("u2"));
    expect((await other.get("/domains")).html).toContain('<p>You have no domains yet. <a href="/search">Find a domain</a>.</p>');
  });

  it("escapes what it shows", async () => {
    const page = await signedIn.browser.get(`/search?q=${encodeURIComponent('"><img src=x onerror="alert(1)">')}`);
    expect(page.html).toContain('value="&quot;&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"');
    expect(page.html).not.toContain("<img");
  });
});

describe("POST /domains/{id}/settings", () => {
  it("turns auto-renew off as PATCH would: saved, domain.updated emitted, the switch shows it", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { auto_renew: "false", etag: await domainTag() });
    expect(page.url).toMatch(new RegExp(`/domains\\?notice=[\\w-]+\\.[\\w-]+#domain-${signedIn.domainId}$`));
    expect(textOf(page.html)).toContain("Auto-renew is off for adalovelace.com. It expires on November 22, 2027 unless you renew it.");
    expect(page.html).toContain('role="switch" aria-checked="false" name="auto_renew" value="true"');
    expect(await getDomain()).toMatchObject({ auto_renew: false, whois_privacy: true });
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["domain.updated"]);
  });

  it("puts the stored domain's entity tag in its switches, whatever the page shows beside it", async () => {
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { type: "A", name: "www", content: "192.0.2.1" },
    });
    const page = await signedIn.browser.get("/domains");
    expect(page.html).toContain(`<input type="hidden" name="etag" value="${escapeHtml(await domainTag())}">`);
  });

  it("changes nothing when the domain changed after the page was shown, and shows the settings as they are now", async () => {
    const shown = await domainTag();
    await signedIn.server.api.PUT("/api/v1/domains/{domain_id}", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { auto_renew: false },
    });
    signedIn.server.outbox.events.length = 0;
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { auto_renew: "false", etag: shown });
    expect(page.status).toBe(412);
    expect(textOf(page.html)).toContain("This domain changed after the page was shown");
    expect(page.html).toContain('role="switch" aria-checked="false" name="auto_renew" value="true"');
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("warns what becomes public before WHOIS privacy goes off, then turns it off and on again, saying so", async () => {
    const warning = await signedIn.browser.get(`/domains/${signedIn.domainId}/whois-privacy`);
    expect(warning.status).toBe(200);
    expect(textOf(warning.html)).toContain("Turn off WHOIS privacy for adalovelace.com?");
    expect(textOf(warning.html)).toContain("your name and organisation your postal address your e-mail address your phone number");
    expect(await getDomain()).toMatchObject({ whois_privacy: true });
    const off = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { whois_privacy: "false", etag: await domainTag() });
    expect(textOf(off.html)).toContain("WHOIS privacy is off for adalovelace.com: your contact details are public in WHOIS.");
    expect(await getDomain()).toMatchObject({ auto_renew: true, whois_privacy: false });
    // Off, the warning page has nothing to warn of: back to the list.
    expect((await signedIn.browser.get(`/domains/${signedIn.domainId}/whois-privacy`)).url).toBe(
      `${signedIn.server.embedUrl}/domains#domain-${signedIn.domainId}`,
    );
    const on = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { whois_privacy: "true", etag: await domainTag() });
    expect(textOf(on.html)).toContain("WHOIS privacy is on for adalovelace.com: your contact details are hidden.");
    expect(await getDomain()).toMatchObject({ whois_privacy: true });
  });

  it("shows no notice for a link it did not make: a forged or another session's notice is ignored", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, { auto_renew: "false", etag: await domainTag() });
    const signed = new URL(page.url).searchParams.get("notice")!;
    const [payload] = signed.split(".");
    const forged = Buffer.from(
      JSON.stringify({ kind: "renewed", domain: signedIn.domainId, years: 9, charged: 1, currency: "USD" }),
    ).toString("base64url");
    for (const notice of [`${forged}.${signed.split(".")[1]}`, `${payload}.AAAA`, payload!, "x.y.z"]) {
      const shown = await signedIn.browser.get(`/domains?notice=${encodeURIComponent(notice)}`);
      expect(shown.status).toBe(200);
      expect(shown.html).not.toContain('role="status"');
    }
    // The same link in another browser session of the same user shows nothing either.
    const other = new EmbedBrowser(signedIn.server.embedUrl);
    await other.open(await signedIn.server.loginUrl("u1"));
    expect((await other.get(`/domains?notice=${encodeURIComponent(signed)}`)).html).not.toContain('role="status"');
  });

  it.each<Record<string, string>>([{}, { auto_renew: "maybe" }])("refuses %j with 422 and changes nothing", async (fields) => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/settings`, fields);
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain("The setting was not changed");
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("answers 404 for another user's domain, and for another partner's", async () => {
    await signedIn.server.api.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    const theirs = (
      await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u2", domain_name: "babbage.com" } })
    ).data!.id;
    await signedIn.server.otherPartner.POST("/api/v1/users", { body: { user_identifier: "x" } });
    const otherPartners = (
      await signedIn.server.otherPartner.POST("/api/v1/sandbox/domains", { body: { user_identifier: "x", domain_name: "hopper.com" } })
    ).data!.id;
    await signedIn.browser.get("/domains");
    const csrf = signedIn.browser.csrfToken();
    for (const id of [theirs, otherPartners, "dom_unknown"]) {
      const page = await signedIn.browser.post(`/domains/${id}/settings`, { auto_renew: "false" }, { csrf });
      expect(page.status).toBe(404);
      expect(textOf(page.html)).toContain("Page not found");
      expect((await signedIn.browser.get(`/domains/${id}`)).status).toBe(404);
    }
    expect(signedIn.server.outbox.events.filter((event) => event.type === "domain.updated")).toEqual([]);
  });
});

describe("renewal", () => {
  it("reviews the total and the new end first, charging nothing", async () => {
    const before = await totalSpent();
    const review = await signedIn.browser.get(`/domains/${signedIn.domainId}/renew?years=2`);
    expect(review.status).toBe(200);
    expect(textOf(review.html)).toContain(
      "Domain adalovelace.com Renewal period 2 years Price per year $14.99 Total $29.98 Registered until November 22, 2029",
    );
    expect(review.html).toContain('<input type="hidden" name="expected_total" value="2998">');
    expect(textOf(review.html)).toContain("Renew for $29.98");
    expect(await totalSpent()).toBe(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("renews as the API does once confirmed: charged, domain.renewed emitted, and says what and until when", async () => {
    const before = await totalSpent();
    await signedIn.browser.get(`/domains/${signedIn.domainId}/renew?years=2`);
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/renew`, { years: "2", expected_total: "2998" });
    expect(textOf(page.html)).toContain(
      "adalovelace.com is renewed for 2 years: $29.98 was charged, and it is registered until November 22, 2029.",
    );
    expect((await getDomain()).expires_at).toBe("2029-11-22T10:00:00Z");
    expect(Number(await totalSpent()) - Number(before)).toBeCloseTo(29.98);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["domain.renewed"]);
  });

  it("charges nothing when the confirmation carries another total than the price now, and reviews again", async () => {
    const before = await totalSpent();
    for (const fields of [{ years: "2", expected_total: "1499" }, { years: "2" }] as Array<Record<string, string>>) {
      const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/renew`, fields);
      expect(page.status).toBe(409);
      expect(textOf(page.html)).toContain("The renewal price changed to $14.99 per year since you reviewed it. Nothing was charged");
      expect(textOf(page.html)).toContain("Renew for $29.98");
    }
    expect(await totalSpent()).toBe(before);
    expect(signedIn.server.outbox.events).toEqual([]);
  });

  it("offers only the years a registration may run, and says so in words for more (422), at the years field", async () => {
    const list = await signedIn.browser.get("/domains");
    expect(list.html).toContain('<option value="9">9 years</option>');
    expect(list.html).not.toContain('<option value="10">');
    const page = await signedIn.browser.get(`/domains/${signedIn.domainId}/renew?years=10`);
    expect(page.status).toBe(422);
    expect(page.html).toContain(
      `id="renew-${signedIn.domainId}-years-error"><span class="visually-hidden">Error: </span>adalovelace.com can be renewed for at most 9 years more: a registration runs at most 10 years ahead.</p>`,
    );
    const confirmed = await signedIn.browser.post(`/domains/${signedIn.domainId}/renew`, { years: "10", expected_total: "14990" });
    expect(confirmed.status).toBe(422);
    expect(textOf(confirmed.html)).toContain("can be renewed for at most 9 years more");
    expect(signedIn.server.outbox.events).toEqual([]);
  });
});
