/** Find a domain and buy it in the embedded interface: availability as the API answers it, the same purchase as the sandbox helper. */
import { describe, expect, it } from "vitest";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ withDomain: false });

const totalSpent = async () =>
  (await signedIn.server.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!.total_spent;
const availabilityMessage = async (domain_name: string) =>
  (
    (await signedIn.server.api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name } } })).error as {
      message: string;
    }
  ).message;

describe("GET /search", () => {
  it("shows an available name with its price and a purchase form", async () => {
    const page = await signedIn.browser.get("/search?q=AdaLovelace.com");
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("adalovelace.com Available 12.99 USD per year");
    expect(text).not.toContain("Premium name");
    expect(page.html).toContain('<input type="hidden" name="domain_name" value="adalovelace.com">');
    expect(text).toContain("Buy adalovelace.com");
  });

  it("flags a premium name and prices it at 25 times", async () => {
    const text = textOf((await signedIn.browser.get("/search?q=premium-ada.com")).html);
    expect(text).toContain("Available 324.75 USD per year Premium name");
  });

  it("shows a registered name as not available, with available suggestions as links", async () => {
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    const page = await signedIn.browser.get("/search?q=adalovelace.com");
    expect(textOf(page.html)).toContain("adalovelace.com Not available");
    expect(page.html).not.toContain('action="/purchase"');
    expect(page.html).toContain('<a href="/search?q=adalovelace.net">adalovelace.net</a>');
    expect(textOf((await signedIn.browser.get("/search?q=taken-ada.com")).html)).toContain("taken-ada.com Not available");
  });

  it.each(["not a name", "adalovelace.invalidtld", "a.b.c.com"])(
    "shows the API's message for %j next to the field, with 422",
    async (query) => {
      const page = await signedIn.browser.get(`/search?q=${encodeURIComponent(query)}`);
      expect(page.status).toBe(422);
      const message = await availabilityMessage(query);
      expect(page.html).toMatch(
        new RegExp(
          `<p class="error-message" id="search-q-error"><span class="visually-hidden">Error: </span>${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</p>`,
        ),
      );
      expect(page.html).toContain('aria-describedby="search-q-hint search-q-error" aria-invalid="true"');
    },
  );

  it.each(["😀.com", "xn--n3h.com"])("refuses %j, a name IDNA2008 does not allow, with 422 and no purchase form", async (query) => {
    const page = await signedIn.browser.get(`/search?q=${encodeURIComponent(query)}`);
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(await availabilityMessage(query));
    expect(page.html).not.toContain('action="/purchase"');
  });

  it("without a query shows only the form", async () => {
    const page = await signedIn.browser.get("/search");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<label for="search-q">Domain name</label>');
    expect(page.html).not.toContain("Available");
  });
});

describe("POST /purchase", () => {
  it("registers the name at once, charges the user, emits domain.registered, and redirects to the domain", async () => {
    await signedIn.browser.get("/search?q=adalovelace.com");
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "2" });
    expect(page.redirects[0]!.status).toBe(303);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("adalovelace.com is yours.");
    const { data } = await signedIn.server.api.GET("/api/v1/users/{user_identifier}/domains", {
      params: { path: { user_identifier: "u1" } },
    });
    expect(data!.domains).toMatchObject([
      { name: "adalovelace.com", status: "active", expires_at: "2028-11-22T10:00:00Z", auto_renew: true },
    ]);
    expect(page.url).toBe(`${signedIn.server.embedUrl}/domains/${data!.domains[0]!.id}?notice=purchased&domain=${data!.domains[0]!.id}`);
    expect(await totalSpent()).toBe("25.98");
    const events = signedIn.server.outbox.events.filter((event) => event.type === "domain.registered");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ partnerId: "partner_a", payload: { data: { name: "adalovelace.com", user_identifier: "u1" } } });
  });

  it("stamps the purchase and the event with the partner's sandbox clock", async () => {
    await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 3600 } });
    await signedIn.browser.get("/search?q=adalovelace.com");
    await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1" });
    const { data } = await signedIn.server.api.GET("/api/v1/users/{user_identifier}/domains", {
      params: { path: { user_identifier: "u1" } },
    });
    expect(data!.domains[0]!.purchased_at).toBe("2026-11-22T11:00:00Z");
    expect(signedIn.server.outbox.events.at(-1)!.createdAt.toISOString()).toBe("2026-11-22T11:00:00.000Z");
  });

  it("charges a premium name its premium price", async () => {
    await signedIn.browser.get("/search?q=ada.com");
    await signedIn.browser.post("/purchase", { domain_name: "ada.com", years: "1" });
    expect(await totalSpent()).toBe("324.75");
  });

  it("refuses a name bought in the meantime with 409 and the API's message, charging nothing", async () => {
    await signedIn.browser.get("/search?q=adalovelace.com");
    await signedIn.server.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    const spent = await totalSpent();
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1" });
    expect(page.status).toBe(409);
    expect(textOf(page.html)).toContain("The domain was not bought adalovelace.com is not available");
    expect(await totalSpent()).toBe(spent);
  });

  it.each([
    ["0", "years must be a whole number from 1 to 10"],
    ["11", "years must be a whole number from 1 to 10"],
    ["two", "years must be a whole number"],
  ])("refuses years=%s with 422: %s", async (years, message) => {
    await signedIn.browser.get("/search?q=adalovelace.com");
    const page = await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(message);
    expect(signedIn.server.outbox.events.filter((event) => event.type === "domain.registered")).toEqual([]);
  });

  it("refuses to buy a name IDNA2008 does not allow, with 422, charging nothing", async () => {
    await signedIn.browser.get("/search?q=adalovelace.com");
    const page = await signedIn.browser.post("/purchase", { domain_name: "☃.com", years: "1" });
    expect(page.status).toBe(422);
    expect(await totalSpent()).toBe("0.00");
  });

  it("registers for the session's user only: a user field in the form is ignored", async () => {
    await signedIn.server.loginUrl("u2");
    await signedIn.browser.get("/search?q=adalovelace.com");
    await signedIn.browser.post("/purchase", { domain_name: "adalovelace.com", years: "1", user_identifier: "u2" });
    expect(signedIn.server.outbox.events.at(-1)!.payload).toMatchObject({ data: { user_identifier: "u1" } });
  });
});
