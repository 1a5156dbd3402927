/** Restricted keys made in the dashboard (issue 36): the form, its errors, the list, a roll, and the request log's scope decisions. */
import { describe, expect, it } from "vitest";
import { visibleText, type DashboardBrowser } from "../../support/dashboard-browser.js";
import { useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();

const KEY = /sk_sandbox_[A-Za-z0-9]{32}/;

/** The ACME preset's fields as the form sends them, for the domain given. */
const acmeFields = (domain: string): Record<string, string> => ({
  preset: "acme",
  name: "ACME client",
  kind: "restricted",
  scope_users: "none",
  scope_domains: "none",
  scope_dns: "write",
  scope_webhooks: "none",
  scope_events: "none",
  scope_sandbox: "none",
  domains: domain,
  record_names: "_acme-challenge",
  record_types: "TXT",
  client_ips: "",
  expires_date: "",
  expires_time: "",
});

async function createKey(browser: DashboardBrowser, fields: Record<string, string>) {
  await browser.get("/keys");
  return browser.post("/keys", fields);
}

const storedKeys = () => server.api.services.persistence.apiKeys.keysOfPartner("partner_a", "sandbox", server.api.clock.now());

const callApi = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${server.api.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe("the key form", () => {
  it("offers full or restricted access, the scope grid, restrictions, a UTC expiry and the ACME preset", async () => {
    const browser = await server.signedIn();
    const page = await browser.get("/keys");
    const text = visibleText(page.text);
    for (const words of [
      "Full access",
      "Restricted",
      "Scopes",
      "Record names (optional)",
      "Client addresses (optional)",
      "Expires (optional, UTC)",
    ])
      expect(text).toContain(words);
    expect(page.text).toContain('name="scope_dns" value="write"');
    // Events are only read: the grid offers no write there.
    expect(page.text).not.toContain('name="scope_events" value="write"');
    expect(page.text).toContain('href="/keys?preset=acme#create-heading"');
  });

  it("is filled in by the ACME preset: dns:write, _acme-challenge, TXT, and the domain asked for", async () => {
    const browser = await server.signedIn();
    const page = await browser.get("/keys?preset=acme");
    expect(page.text).toContain('name="scope_dns" value="write" checked');
    expect(page.text).toContain('name="kind" value="restricted" checked');
    expect(page.text).toMatch(/id="key-record-names"[^>]*>_acme-challenge<\/textarea>/);
    expect(page.text).toMatch(/id="key-record-types"[^>]*>TXT<\/textarea>/);
    expect(page.text).toMatch(/id="key-domains"[^>]*required/);
    expect(visibleText(page.text)).toContain("Enter the domain it gets certificates for");
  });

  it("makes a restricted key, shown once with what it may do, stored with its normalised grant", async () => {
    const browser = await server.signedIn();
    const page = await createKey(browser, {
      ...acmeFields("Example.COM"),
      record_types: "txt",
      client_ips: "192.0.2.7, 2001:db8::/32\n198.51.100.0/24",
      expires_date: "2027-01-31",
      expires_time: "17:30",
    });
    expect(page.status).toBe(201);
    const key = KEY.exec(page.text)![0];
    const text = visibleText(page.text);
    expect(text).toContain("Your new key “ACME client”");
    expect(text).toContain("Access Restricted DNS records: write");
    expect(text).toContain("Expires 2027-01-31 17:30:00 UTC");
    // The example call is one the key may make, or none.
    expect(page.text).not.toContain("/api/v1/domains/tlds -H");
    const stored = (await storedKeys()).find((row) => row.name === "ACME client")!;
    expect(stored).toMatchObject({
      scopes: ["dns:write"],
      restrictions: {
        domains: ["example.com"],
        recordNames: ["_acme-challenge"],
        recordTypes: ["TXT"],
        clientIps: ["192.0.2.7/32", "2001:db8::/32", "198.51.100.0/24"],
      },
      expiresAt: new Date("2027-01-31T17:30:00Z"),
    });
    const list = await browser.get("/keys");
    expect(list.text).not.toContain(key);
    expect(visibleText(list.text)).toContain(
      "ACME client " +
        `${key.slice(0, 15)}…${key.slice(-4)} Restricted DNS records: write ` +
        "Domains: example.com Record names: _acme-challenge Record types: TXT Client addresses: 192.0.2.7/32, 2001:db8::/32, 198.51.100.0/24",
    );
    expect(visibleText(list.text)).toMatch(/Demo key|Full access/);
  });

  it("makes a full-access key as before, with an expiry if given", async () => {
    const browser = await server.signedIn();
    const page = await createKey(browser, { name: "Back office", kind: "full", expires_date: "2027-02-01" });
    expect(page.status).toBe(201);
    expect(visibleText(page.text)).toContain("Access Full access Restrictions None Expires 2027-02-01 00:00:00 UTC");
    expect((await storedKeys()).find((row) => row.name === "Back office")).toMatchObject({ scopes: null, restrictions: null });
  });

  it.each([
    ["a restricted key without a scope", { ...acmeFields("example.com"), scope_dns: "none" }, "scopes", "Choose at least one scope"],
    ["the ACME preset without its domain", acmeFields(""), "domains", "Enter the domain the ACME client"],
    ["a domain that is none", acmeFields("not a domain"), "domains", "Domains: Not a domain name"],
    [
      "a record type that is none",
      { ...acmeFields("example.com"), record_types: "TXT, 12" },
      "record_types",
      "Record types: Not a record type: 12.",
    ],
    [
      "a client range that is none",
      { ...acmeFields("example.com"), client_ips: "192.0.2.0/33" },
      "client_ips",
      "Client addresses: Not an IP address",
    ],
    [
      "an expiry in the past",
      { ...acmeFields("example.com"), expires_date: "2020-01-01" },
      "expires_at",
      "The expiry must lie in the future.",
    ],
    [
      "an expiry that does not exist",
      { ...acmeFields("example.com"), expires_date: "2027-02-30" },
      "expires_at",
      "That date or time does not exist",
    ],
    ["a time without a date", { ...acmeFields("example.com"), expires_time: "10:00" }, "expires_at", "Give the date the key expires"],
    ["a full key with scopes", { ...acmeFields("example.com"), kind: "full" }, "kind", "A full-access key takes no scopes or restrictions"],
    ["no name", { ...acmeFields("example.com"), name: "" }, "name", "Give the key a name"],
  ])("refuses %s with 422, the problem beside its field and linked from the summary", async (_case, fields, field, message) => {
    const browser = await server.signedIn();
    const before = (await storedKeys()).length;
    const page = await createKey(browser, fields);
    expect(page.status).toBe(422);
    expect(page.text).not.toMatch(KEY);
    const summary = /<div class="error-summary"[\s\S]*?<\/div>/.exec(page.text)![0];
    const id = {
      scopes: "key-scopes",
      domains: "key-domains",
      record_types: "key-record-types",
      client_ips: "key-client-ips",
      expires_at: "key-expires-date",
      kind: "key-kind-0",
      name: "key-name",
    }[field]!;
    expect(summary).toContain(`href="#${id}"`);
    expect(visibleText(summary)).toContain(message);
    expect(page.text).toContain(`id="${id.replace(/-0$/, "")}-error"`);
    // What was sent is shown again, to correct rather than retype.
    if (fields.record_names) expect(page.text).toContain(">_acme-challenge</textarea>");
    expect((await storedKeys()).length).toBe(before);
  });

  it("refuses a choice the form does not offer (events: write) as a tampered form", async () => {
    const browser = await server.signedIn();
    const page = await createKey(browser, { ...acmeFields("example.com"), scope_events: "write" });
    expect(page.status).toBe(422);
    expect(page.text).not.toMatch(KEY);
  });
});

describe("a restricted key after it is made", () => {
  it("is rolled with the same access, restrictions and expiry", async () => {
    const browser = await server.signedIn();
    await createKey(browser, { ...acmeFields("example.com"), expires_date: "2027-01-31" });
    const id = /href="\/keys\/(key_[A-Za-z0-9]+)\/roll" aria-label="Roll ACME client"/.exec((await browser.get("/keys")).text)![1]!;
    const confirm = visibleText((await browser.get(`/keys/${id}/roll`)).text);
    expect(confirm).toContain("the same access");
    expect(confirm).toContain("Access Restricted DNS records: write Restrictions Domains: example.com");
    const rolled = await browser.post(`/keys/${id}/roll`, { grace_seconds: "0" });
    expect(rolled.status).toBe(201);
    expect(visibleText(rolled.text)).toContain("Access Restricted DNS records: write");
    const keys = (await storedKeys()).filter((row) => row.name === "ACME client");
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      scopes: ["dns:write"],
      restrictions: { recordTypes: ["TXT"] },
      expiresAt: new Date("2027-01-31T00:00:00Z"),
    });
  });

  it("sets the challenge TXT and is refused elsewhere; the request log names the key and each scope decision", async () => {
    const browser = await server.signedIn();
    await server.api.api.POST("/api/v1/users", { body: { user_identifier: "u1", email: "u1@example.com" } });
    const domainId = await server.api.registerDomainFor("u1", "acme-example.com");
    const key = KEY.exec((await createKey(browser, acmeFields("acme-example.com"))).text)![0];
    const challenge = await callApi(key, `/api/v1/domains/${domainId}/dns`, {
      method: "POST",
      body: { type: "TXT", name: "_acme-challenge", content: "gfj9Xq...Rg85nM" },
    });
    expect(challenge.status).toBe(201);
    const users = await callApi(key, "/api/v1/users");
    expect(users.status).toBe(403);
    const otherName = await callApi(key, `/api/v1/domains/${domainId}/dns`, {
      method: "POST",
      body: { type: "TXT", name: "www", content: "not mine" },
    });
    expect(otherName.status).toBe(403);
    const log = await browser.get("/logs");
    const rows = log.text.split("<tr>").slice(1);
    const rowOf = (response: Response) => visibleText(rows.find((row) => row.includes(response.headers.get("x-request-id")!))!);
    // The key as the keys list shows it: a rolled key has the same name.
    expect(rowOf(challenge)).toMatch(/POST \/api\/v1\/domains\/\{domain_id\}\/dns 201 .* ACME client \S+ Allowed/);
    expect(rowOf(challenge)).toContain(`ACME client ${key.slice(0, 15)}…${key.slice(-4)} Allowed`);
    expect(rowOf(users)).toContain("ACME client");
    expect(rowOf(users)).toContain("Refused missing scope users:read");
    expect(rowOf(otherName)).toContain("Refused by restriction: record names");
  });
});
