/** Who may frame the embedded interface: each partner's origins, sent as CSP frame-ancestors. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadDeploymentConfig } from "../../../server/assembly/config.js";
import { frameAncestors, parseEmbedOrigin } from "../../../server/partners/framing/framing.js";
import { startEmbedTestServer, type EmbedTestServer } from "../../support/embed-test-server.js";
import { EmbedBrowser } from "./support/embed-browser.js";

const PARTNER_A_ORIGINS = ["https://app.partner-a.example", "https://*.customers.partner-a.example"];

let s: EmbedTestServer;
beforeAll(async () => {
  s = await startEmbedTestServer({ embedOrigins: PARTNER_A_ORIGINS });
});
beforeEach(() => s.reset());
afterAll(() => s.close());

const frameAncestorsOf = (headers: Headers) => /frame-ancestors ([^;]+)/.exec(headers.get("content-security-policy") ?? "")?.[1];

describe("Content-Security-Policy of the embed host", () => {
  it("lets exactly the partner's configured origins frame its users' pages, on the exchange and every page", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    const page = await browser.open(await s.loginUrl("u1"));
    expect(frameAncestorsOf(page.redirects[0]!.headers)).toBe(PARTNER_A_ORIGINS.join(" "));
    for (const path of ["/domains", "/search?q=adalovelace.com"])
      expect(frameAncestorsOf((await browser.get(path)).headers)).toBe(PARTNER_A_ORIGINS.join(" "));
  });

  it("answers frame-ancestors 'none' for a partner that configured no origin", async () => {
    const { data } = await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "theirs" } });
    const page = await new EmbedBrowser(s.embedUrl).open(data!.login_url);
    expect(page.status).toBe(200);
    expect(frameAncestorsOf(page.headers)).toBe("'none'");
  });

  it.each([
    ["an unknown login token", `/session/${"A".repeat(43)}`, 404],
    ["a malformed login token", "/session/nope", 404],
    ["a page without a cookie", "/domains", 401],
    ["a missing asset", "/assets/nothing.js", 404],
  ])(
    "lets no one frame the answer to %s: it belongs to no known partner, and listing every partner's origins would tell who they are",
    async (_case, path, status) => {
      const page = await new EmbedBrowser(s.embedUrl).get(path);
      expect(page.status).toBe(status);
      expect(frameAncestorsOf(page.headers)).toBe("'none'");
    },
  );

  it("lets the partner frame the session-expired page of its own users' ended sessions, which shows no data", async () => {
    const browser = new EmbedBrowser(s.embedUrl);
    const loginUrl = await s.loginUrl("u1");
    await browser.open(loginUrl);
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 86_400 } });
    for (const page of [await browser.get("/domains"), await new EmbedBrowser(s.embedUrl).open(loginUrl)]) {
      expect(page.status).toBe(410);
      expect(frameAncestorsOf(page.headers)).toBe(PARTNER_A_ORIGINS.join(" "));
    }
  });

  it("allows only this host's own scripts, styles and form targets", async () => {
    const page = await new EmbedBrowser(s.embedUrl).open(await s.loginUrl("u1"));
    // Directive for directive: helmet writes them without a space after each semicolon.
    expect(page.headers.get("content-security-policy")?.split(/\s*;\s*/)).toEqual(
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${PARTNER_A_ORIGINS.join(" ")}`.split(
        "; ",
      ),
    );
    expect(page.html).not.toMatch(/<script>|\sstyle="|\son[a-z]+="/);
  });
});

describe("parseEmbedOrigin", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com"],
    ["https://App.Example.com/", "https://app.example.com"],
    ["https://app.example.com:443", "https://app.example.com"],
    ["https://app.example.com:8443", "https://app.example.com:8443"],
    ["https://*.example.com", "https://*.example.com"],
    ["http://localhost:3002", "http://localhost:3002"],
    ["http://127.0.0.1:3002", "http://127.0.0.1:3002"],
    ["http://[::1]:3002", "http://[::1]:3002"],
  ])("accepts %s as %s", (value, origin) => {
    expect(parseEmbedOrigin(value)).toBe(origin);
  });

  it.each([
    "http://app.example.com",
    "https://app.example.com/path",
    "https://app.example.com?x=1",
    "https://user:pass@app.example.com",
    "https://app.example.com; script-src *",
    "https://app.example.com https://evil.example",
    "'self'",
    "*",
    "https://*",
    "https://*.com.",
    "ftp://app.example.com",
    "javascript:alert(1)",
    "app.example.com",
    "",
  ])("refuses %j", (value) => {
    expect(() => parseEmbedOrigin(value)).toThrow(/embed origin/);
  });

  it.each([
    ["https://*.app.github.io", "https://*.app.github.io"],
    ["https://*.shop.example.co.uk", "https://*.shop.example.co.uk"],
    ["https://*.example.co.uk:8443", "https://*.example.co.uk:8443"],
  ])("accepts the wildcard %s below a registrable domain", (value, origin) => {
    expect(parseEmbedOrigin(value)).toBe(origin);
  });

  // The Public Suffix List's ICANN and private sections alike: under each, every name is someone else's.
  it.each([
    "https://*.github.io",
    "https://*.co.uk",
    "https://*.CO.UK",
    "https://*.co.uk:8443",
    "https://*.s3.amazonaws.com",
    "https://*.pages.dev",
    "https://*.blogspot.com",
    "https://*.xn--p1ai",
    "https://*.example",
  ])("refuses the wildcard %j over a public suffix", (value) => {
    expect(() => parseEmbedOrigin(value)).toThrow(/public suffix/);
  });

  it("frameAncestors lists the origins, or 'none'", () => {
    expect(frameAncestors(["https://a.example", "https://b.example"])).toBe("frame-ancestors https://a.example https://b.example");
    expect(frameAncestors([])).toBe("frame-ancestors 'none'");
  });
});

describe("configuration of embed origins", () => {
  const partnersFile = (content: object) => {
    const file = join(mkdtempSync(join(tmpdir(), "embed-origins-")), "partners.json");
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it("reads embed_origins from the partners file and adds PARTNER_API_EMBED_ORIGINS", () => {
    const file = partnersFile({
      partners: [{ id: "acme", name: "Acme", environment: "sandbox", key_hashes: [], embed_origins: ["https://app.acme.example"] }],
    });
    const config = loadDeploymentConfig({
      PARTNER_API_CONFIG: file,
      PARTNER_API_EMBED_ORIGINS: "acme=https://admin.acme.example, demo=http://localhost:5173",
    });
    expect(config.app.partners[0]!.embedOrigins).toEqual(["https://app.acme.example", "https://admin.acme.example"]);
    expect(config.embedOrigins.get("demo")).toEqual(["http://localhost:5173"]);
  });

  it("gives partners of PARTNER_API_KEYS their origins too", () => {
    const config = loadDeploymentConfig({
      PARTNER_API_CONFIG: "/nonexistent.json",
      PARTNER_API_KEYS: "ci:sk_sandbox_x",
      PARTNER_API_EMBED_ORIGINS: "ci=https://ci.example",
    });
    expect(config.app.partners[0]!.embedOrigins).toEqual(["https://ci.example"]);
  });

  it.each([
    [{ PARTNER_API_EMBED_ORIGINS: "https://app.example.com" }, /partnerId=origin/],
    [{ PARTNER_API_EMBED_ORIGINS: "acme=http://app.example.com" }, /must use https/],
    [{ PARTNER_API_EMBED_ORIGINS: "acme=https://app.example.com/x" }, /scheme:\/\/host/],
  ])("refuses %j at start-up", (env, message) => {
    expect(() => loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", ...env })).toThrow(message);
  });

  it("refuses a bad origin in the partners file, naming the partner", () => {
    const file = partnersFile({
      partners: [
        {
          id: "acme",
          name: "Acme",
          environment: "sandbox",
          key_hashes: [],
          embed_origins: ["https://app.acme.example; frame-ancestors *"],
        },
      ],
    });
    expect(() => loadDeploymentConfig({ PARTNER_API_CONFIG: file })).toThrow(/embed_origins of acme/);
  });
});
