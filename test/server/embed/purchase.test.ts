/**
 * Find a domain and buy it in the embedded interface: availability as the API answers it, a word on
 * every TLD, priced suggestions; a review with the total before anything is charged, and the same
 * purchase as the sandbox helper once confirmed with that total.
 */
import { describe, expect, it } from "vitest";
import { TLD_CATALOGUE } from "../../../server/domain/catalog/tlds.js";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ withDomain: false });

const totalSpent = async () =>
  (await signedIn.server.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!.total_spent;

const registered = () => signedIn.server.outbox.events.filter((event) => event.type === "domain.registered");

describe("GET /search", () => {
  it("shows an available name with its price and a form that reviews the purchase", async () => {
    const page = await signedIn.browser.get("/search?q=AdaLovelace.com");
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Available $12.99 per year");
    expect(text).not.toContain("Premium name");
    expect(page.html).toContain('<form method="get" action="/purchase"');
    expect(page.html).toContain('<input type="hidden" name="domain_name" value="adalovelace.com">');
    expect(text).toContain("Review purchase adalovelace.com");
  });

  it("flags a premium name and prices it at 25 times", async () => {
    const text = textOf((await signedIn.browser.get("/search?q=premium-ada.com")).html);
    expect(text).toContain("Available $324.75 per year Premium name");
  });

  it("shows a registered name as taken, with its suggestions priced and available", async () => {
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    const page = await signedIn.browser.get("/search?q=adalovelace.com");
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Taken Available alternatives adalovelace.net Available $13.99 per year Choose adalovelace.net");
    expect(page.html).not.toContain('action="/purchase"');
    expect(page.html).toContain('href="/purchase?domain_name=adalovelace.net&amp;years=1"');
    expect(textOf((await signedIn.browser.get("/search?q=taken-ada.com")).html)).toContain("taken-ada.com Taken");
  });

  it("searches a word without a TLD on every TLD of the catalogue, available ones first", async () => {
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    const page = await signedIn.browser.get("/search?q=AdaLovelace");
    expect(page.status).toBe(200);
    const rows = page.html.match(/<li class="name-row">/g) ?? [];
    expect(rows).toHaveLength(TLD_CATALOGUE.length);
    const text = textOf(page.html);
    expect(text).toContain("Names with “adalovelace”");
    expect(text).toContain("adalovelace.de Available $8.99 per year Choose adalovelace.de");
    expect(text).toContain("adalovelace.com Taken");
    for (const closed of TLD_CATALOGUE.filter((tld) => !tld.available))
      expect(text).toContain(`adalovelace.${closed.tld} ${en.search.closedEnding}`);
    // Taken and closed names come after every available one.
    expect(text.indexOf("adalovelace.com Taken")).toBeGreaterThan(text.lastIndexOf("Available"));
  });

  it.each([
    ["not a name", en.errors.domainCharacters],
    ["adalovelace.invalidtld", en.errors.endingNotOffered("invalidtld")],
    ["a.b.c.com", en.errors.domainName],
    ["😀.com", en.errors.domainCharacters],
    ["xn--n3h.com", en.errors.domainName],
  ])("says what is wrong with %j in words, at the field, with 422", async (query, message) => {
    const page = await signedIn.browser.get(`/search?q=${encodeURIComponent(query)}`);
    expect(page.status).toBe(422);
    expect(page.html).toContain(`<p class="error-message" id="search-q-error"><span class="visually-hidden">Error: </span>${message}</p>`);
    expect(page.html).toContain('aria-describedby="search-q-hint search-q-error" aria-invalid="true"');
    expect(page.html).not.toContain('action="/purchase"');
  });

  it("without a query shows only the form", async () => {
    const page = await signedIn.browser.get("/search");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<label for="search-q">Domain name or word</label>');
    expect(page.html).not.toContain("Available");
  });
});

describe("GET /purchase: the review", () => {
  it("shows the name, period, price, total and end date, and charges nothing", async () => {
    const page = await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=2");
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(
      "Domain adalovelace.com Registration period 2 years Price per year $12.99 Total $25.98 Registered until November 22, 2028",
    );
    expect(textOf(page.html)).toContain("Auto-renew is on: the domain renews each year at $14.99 until you turn it off.");
    expect(page.html).toContain('<input type="hidden" name="expected_total" value="2598">');
    expect(textOf(page.html)).toContain("Buy for $25.98");
    expect(await totalSpent()).toBe("0.00");
    expect(registered()).toEqual([]);
  });

  it("flags a premium name and its price", async () => {
    const text = textOf((await signedIn.browser.get("/purchase?domain_name=ada.com&years=1")).html);
    expect(text).toContain("ada.com Premium name");
    expect(text).toContain(en.purchase.premiumNote);
    expect(text).toContain("Buy for $324.75");
  });

  it.each(["0", "11", "two"])("refuses years=%s with 422 at the years field", async (years) => {
    const page = await signedIn.browser.get(`/purchase?domain_name=adalovelace.com&years=${years}`);
    expect(page.status).toBe(422);
    expect(page.html).toContain(`id="purchase-years-error"><span class="visually-hidden">Error: </span>${en.errors.years}</p>`);
  });
});

describe("POST /purchase: the confirmation", () => {
  it("registers the name, charges the total shown, emits domain.registered, and says what was charged until when", async () => {
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=2");
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "2", expected_total: "2598" });
    expect(page.redirects[0]!.status).toBe(303);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(
      "adalovelace.com is yours. $25.98 was charged for 2 years; it is registered until November 22, 2028.",
    );
    const { data } = await signedIn.server.api.GET("/api/v1/users/{user_identifier}/domains", {
      params: { path: { user_identifier: "u1" } },
    });
    expect(data!.domains).toMatchObject([
      { name: "adalovelace.com", status: "active", expires_at: "2028-11-22T10:00:00Z", auto_renew: true },
    ]);
    expect(page.url.startsWith(`${signedIn.server.embedUrl}/domains/${data!.domains[0]!.id}?notice=`)).toBe(true);
    expect(await totalSpent()).toBe("25.98");
    expect(registered()).toHaveLength(1);
    expect(registered()[0]).toMatchObject({
      partnerId: "partner_a",
      payload: { data: { name: "adalovelace.com", user_identifier: "u1" } },
    });
  });

  it("stamps the purchase and the event with the partner's sandbox clock", async () => {
    await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 3600 } });
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=1");
    await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1", expected_total: "1299" });
    const { data } = await signedIn.server.api.GET("/api/v1/users/{user_identifier}/domains", {
      params: { path: { user_identifier: "u1" } },
    });
    expect(data!.domains[0]!.purchased_at).toBe("2026-11-22T11:00:00Z");
    expect(signedIn.server.outbox.events.at(-1)!.createdAt.toISOString()).toBe("2026-11-22T11:00:00.000Z");
  });

  it("charges a premium name its premium price", async () => {
    await signedIn.browser.get("/purchase?domain_name=ada.com&years=1");
    await signedIn.browser.post("/purchase", { domain_name: "ada.com", years: "1", expected_total: "32475" });
    expect(await totalSpent()).toBe("324.75");
  });

  it.each([
    ["another total", { expected_total: "1299" }],
    ["no total (a form the review did not make)", {}],
  ])("charges nothing when the confirmation carries %s, and reviews again with the price now", async (_what, total) => {
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=2");
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "2", ...total });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain("The price of this name changed to $12.99 per year since you reviewed it. Nothing was charged");
    expect(textOf(page.html)).toContain("Buy for $25.98");
    expect(await totalSpent()).toBe("0.00");
    expect(registered()).toEqual([]);
  });

  it("refuses a name bought in the meantime with 409, in words, charging nothing", async () => {
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=1");
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    const spent = await totalSpent();
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1", expected_total: "1299" });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain(`The domain was not bought ${en.errors.notAvailable("adalovelace.com")}`);
    expect(await totalSpent()).toBe(spent);
  });

  it.each(["0", "11", "two"])("refuses years=%s with 422, charging nothing", async (years) => {
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=1");
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years, expected_total: "1299" });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(en.errors.years);
    expect(registered()).toEqual([]);
  });

  it("refuses to buy a name IDNA2008 does not allow, with 422, charging nothing", async () => {
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=1");
    const page = await signedIn.browser.post("/purchase", { domain_name: "☃.com", years: "1", expected_total: "1299" });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(en.errors.domainCharacters);
    expect(await totalSpent()).toBe("0.00");
  });

  it("registers for the session's user only: a user field in the form is ignored", async () => {
    await signedIn.server.loginUrl("u2");
    await signedIn.browser.get("/purchase?domain_name=adalovelace.com&years=1");
    await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1", expected_total: "1299", user_identifier: "u2" });
    expect(signedIn.server.outbox.events.at(-1)!.payload).toMatchObject({ data: { user_identifier: "u1" } });
  });
});
