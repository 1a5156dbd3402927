/** The dashboard's other sections: the sandbox clock and reset, who may frame the embedded interface, the team, the developer portal. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LOGO_BYTES } from "../../../server/partners/branding/logo.js";
import { visibleText } from "../../support/dashboard-browser.js";
import { solidPng } from "../../support/png.js";
import { useDashboardTestServer } from "../../support/dashboard-test-server.js";

const reference = mkdtempSync(join(tmpdir(), "portal-reference-"));
writeFileSync(join(reference, "partner-api.html"), "<!doctype html><title>Reference of Variant R</title>");
const { version: clientVersion } = JSON.parse(readFileSync("client/package.json", "utf8")) as { version: string };
const tarballName = `partner-api-client-${clientVersion}.tgz`;
/** A stand-in for the tarball `npm run build:server` packs (test/scripts/client-tarball.test.ts checks that one). */
function standInTarball(): Buffer {
  const packing = mkdtempSync(join(tmpdir(), "portal-client-package-"));
  mkdirSync(join(packing, "package"));
  writeFileSync(join(packing, "package", "package.json"), JSON.stringify({ name: "@partner-api/client", version: clientVersion }));
  return execFileSync("tar", ["-czf", "-", "-C", packing, "package"]);
}
const tarball = standInTarball();
const client = mkdtempSync(join(tmpdir(), "portal-client-"));
for (const file of [tarballName, "partner-api-client.tgz"]) writeFileSync(join(client, file), tarball);
writeFileSync(join(client, ".build-record.json"), "{}");
writeFileSync(join(client, "notes.txt"), "not a tarball");
const server = useDashboardTestServer({ portal: { documents: "generated/openapi", reference, client } });

describe("the sandbox section", () => {
  it("reads and advances the partner's clock, listing what fell due on the way", async () => {
    const { api } = server;
    await api.api.POST("/api/v1/users", { body: { user_identifier: "ada" } as never });
    const created = await api.api.POST("/api/v1/sandbox/domains", {
      body: { user_identifier: "ada", domain_name: "clocked.dev", years: 1, auto_renew: false } as never,
    });
    expect(created.response.status).toBe(201);
    const browser = await server.signedIn();
    expect(visibleText((await browser.get("/sandbox")).text)).toContain("Ahead of real time by Nothing");
    const advanced = await browser.post("/sandbox/clock", { amount: "400", unit: "days" });
    expect(advanced.status).toBe(200);
    const text = visibleText(advanced.text);
    expect(text).toContain("Ahead of real time by 400 days 0 hours 0 minutes");
    expect(text).toMatch(/domain dom_\w+ active → expired/);
    expect((await api.api.GET("/api/v1/sandbox/clock")).data!.advanced_seconds).toBe(400 * 86_400);
    // Only this partner's clock moved.
    expect((await api.otherPartner.GET("/api/v1/sandbox/clock")).data!.advanced_seconds).toBe(0);
  });

  it("refuses an amount that is no whole number or beyond ten years, and moves nothing", async () => {
    const browser = await server.signedIn();
    await browser.get("/sandbox");
    for (const amount of ["0", "-1", "1.5", "x", "4000"]) {
      const page = await browser.post("/sandbox/clock", { amount, unit: "days" });
      expect([amount, page.status]).toEqual([amount, 422]);
      expect(page.text).toContain('id="amount-error"');
    }
    expect((await server.api.api.GET("/api/v1/sandbox/clock")).data!.advanced_seconds).toBe(0);
  });

  it("resets the partner's sandbox data behind a confirmation", async () => {
    const { api } = server;
    await api.api.POST("/api/v1/users", { body: { user_identifier: "ada" } as never });
    await api.otherPartner.POST("/api/v1/users", { body: { user_identifier: "bob" } as never });
    const browser = await server.signedIn();
    const confirm = await browser.get("/sandbox/reset");
    expect(visibleText(confirm.text)).toContain("This deletes 1 user of your sandbox");
    expect((await api.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "ada" } } })).response.status).toBe(
      200,
    );
    expect((await browser.post("/sandbox/reset")).location).toBe("/sandbox?done=reset");
    expect((await api.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "ada" } } })).response.status).toBe(
      404,
    );
    expect(
      (await api.otherPartner.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "bob" } } })).response.status,
    ).toBe(200);
  });
});

describe("the embedding section", () => {
  it("stores the origins that may frame the embedded interface, checked as the configuration's are", async () => {
    const browser = await server.signedIn();
    await browser.get("/embedding");
    const refused = await browser.post("/embedding", {
      origins: "https://app.partner-a.test\nhttp://app.partner-a.test\njavascript:alert(1)",
    });
    expect(refused.status).toBe(422);
    expect(visibleText(refused.text)).toContain("must use https");
    const { persistence } = server.api.services;
    expect(await persistence.framingOrigins.originsOf("partner_a", "sandbox")).toEqual([]);
    const saved = await browser.post("/embedding", {
      origins: "https://app.partner-a.test/\r\nhttps://*.partner-a.test\n\nhttps://APP.partner-a.test",
    });
    expect(saved.location).toBe("/embedding?done=saved");
    expect(await persistence.framingOrigins.originsOf("partner_a", "sandbox")).toEqual([
      "https://app.partner-a.test",
      "https://*.partner-a.test",
    ]);
    expect(await persistence.framingOrigins.originsOf("partner_b", "sandbox")).toEqual([]);
    expect((await browser.get("/embedding")).text).toMatch(/>https:\/\/app\.partner-a\.test\nhttps:\/\/\*\.partner-a\.test<\/textarea>/);
  });
});

describe("the partner's look in the embedded interface", () => {
  const logo = solidPng(120, 40, [106, 27, 154]);

  it("saves an accent colour that keeps text readable, refuses one that does not, and resets it", async () => {
    const browser = await server.signedIn();
    const { branding } = server.api.services.persistence;
    await browser.get("/embedding");
    for (const [colour, message] of [
      ["#ffeb3b", "This colour is too light: text on it and links in it reach a contrast of 1.1:1, and need at least 4.5:1"],
      ["#3b82f6", "reach a contrast of 3.3:1"],
      ["not a colour", "Enter a colour such as #6a1b9a"],
      ["rgb(0 0 0 / 50%)", "it must be opaque"],
    ]) {
      const refused = await browser.post("/embedding/accent", { accent_colour: colour! });
      expect([colour, refused.status]).toEqual([colour, 422]);
      expect(visibleText(refused.text)).toContain(message);
      expect(refused.text).toContain('id="accent-colour-error"');
    }
    expect((await branding.brandingOf("partner_a", "sandbox")).accentColour).toBeNull();
    const saved = await browser.post("/embedding/accent", { accent_colour: "RebeccaPurple" });
    expect(saved.location).toBe("/embedding?done=accent");
    expect((await branding.brandingOf("partner_a", "sandbox")).accentColour).toBe("#663399");
    expect((await branding.brandingOf("partner_b", "sandbox")).accentColour).toBeNull();
    await browser.get("/embedding");
    expect((await browser.post("/embedding/accent", { accent_colour: "" })).location).toBe("/embedding?done=accent-removed");
    expect((await branding.brandingOf("partner_a", "sandbox")).accentColour).toBeNull();
  });

  it("takes a PNG, JPEG or WebP logo by its bytes, refuses anything else or too large, and removes it", async () => {
    const browser = await server.signedIn();
    const { branding } = server.api.services.persistence;
    await browser.get("/embedding");
    for (const [file, status, message] of [
      [
        {
          name: "logo.svg",
          type: "image/svg+xml",
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        },
        422,
        "This file is not a PNG, JPEG or WebP image.",
      ],
      [{ name: "logo.png", type: "image/png", bytes: Buffer.from("GIF89a not a png") }, 422, "This file is not a PNG, JPEG or WebP image."],
      [
        { name: "huge.png", type: "image/png", bytes: Buffer.concat([logo, Buffer.alloc(MAX_LOGO_BYTES)]) },
        413,
        "The logo is larger than 100 KB.",
      ],
    ] as const) {
      const refused = await browser.upload("/embedding/logo", "logo", file);
      expect([file.name, refused.status]).toEqual([file.name, status]);
      expect(visibleText(refused.text)).toContain(message);
    }
    expect((await branding.brandingOf("partner_a", "sandbox")).logo).toBeNull();
    const saved = await browser.upload("/embedding/logo", "logo", { name: "logo.bin", type: "application/octet-stream", bytes: logo });
    expect(saved.location).toBe("/embedding?done=logo");
    const { logo: stored } = await branding.brandingOf("partner_a", "sandbox");
    expect(stored).toMatchObject({ type: "image/png", version: expect.stringMatching(/^[\w-]{16}$/) });
    const page = await browser.get("/embedding");
    expect(page.text).toContain(`<img class="logo-preview" src="/embedding/logo?v=${stored!.version}"`);
    const served = await fetch(`${server.dashboardUrl}/embedding/logo?v=${stored!.version}`, {
      headers: { Cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
    });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);
    expect((await browser.post("/embedding/logo/remove")).location).toBe("/embedding?done=logo-removed");
    expect((await branding.brandingOf("partner_a", "sandbox")).logo).toBeNull();
  });

  it("refuses an upload without the form token, storing nothing", async () => {
    const browser = await server.signedIn();
    browser.csrf = null;
    expect((await browser.upload("/embedding/logo", "logo", { name: "logo.png", type: "image/png", bytes: logo })).status).toBe(403);
    expect((await server.api.services.persistence.branding.brandingOf("partner_a", "sandbox")).logo).toBeNull();
  });
});

describe("the team section", () => {
  it("invites by a link sent to the address; joining signs the invitee in as the role chosen", async () => {
    const owner = await server.signedIn();
    await owner.get("/team");
    expect((await owner.post("/team/invitations", { email: "Dev@Partner-A.test", role: "developer" })).location).toBe("/team?done=invited");
    const mail = server.mails.at(-1)!;
    expect(mail).toMatchObject({ to: "dev@partner-a.test", subject: "owner@partner-a.test invited you to Partner A" });
    const invitee = server.browser();
    const path = new URL(mail.link!).pathname;
    expect(visibleText((await invitee.get(path)).text)).toContain("Join Partner A");
    expect((await invitee.post(path, { password: "short" })).status).toBe(422);
    expect((await invitee.post(path, { password: "a long enough password" })).location).toBe("/keys?welcome=1");
    const team = visibleText((await invitee.get("/team")).text);
    expect(team).toContain("dev@partner-a.test (you) developer");
    expect(team).toContain("Only owners invite");
    // A developer cannot change the team.
    expect((await invitee.post("/team/invitations", { email: "x@y.test", role: "owner" })).status).toBe(403);
    // The link worked once.
    expect((await server.browser().get(path)).status).toBe(410);
  });

  it("changes roles and removes members, never leaving the account without an owner", async () => {
    const owner = await server.signedIn();
    await owner.get("/team");
    await owner.post("/team/invitations", { email: "dev@partner-a.test", role: "developer" });
    const invitee = server.browser();
    const path = new URL(server.mails.at(-1)!.link!).pathname;
    await invitee.get(path);
    await invitee.post(path, { password: "a long enough password" });
    const { accounts } = server.api.services.persistence;
    const me = (await accounts.findMemberByEmail("owner@partner-a.test"))!;
    const dev = (await accounts.findMemberByEmail("dev@partner-a.test"))!;
    expect((await owner.post(`/team/members/${me.id}/role`, { role: "developer" })).location).toBe("/team?done=last_owner");
    expect((await owner.post(`/team/members/${me.id}/remove`)).location).toBe("/team?done=last_owner");
    expect((await owner.post(`/team/members/${dev.id}/role`, { role: "owner" })).location).toBe("/team?done=role");
    expect((await owner.post(`/team/members/${dev.id}/remove`)).location).toBe("/team?done=removed");
    // The removed member is signed out at once.
    expect((await invitee.get("/keys")).status).toBe(303);
  });
});

describe("the developer portal", () => {
  it("publishes partner-api.yml (Variant R), the other documents and the HTML reference, without sign-in", async () => {
    const browser = server.browser();
    const index = await browser.get("/docs/");
    expect(index.status).toBe(200);
    const text = visibleText(index.text);
    // The configured address of the dashboard (PARTNER_API_DASHBOARD_URL), where partners reach it.
    expect(text).toContain(`npm install http://dashboard.test/docs/client/${tarballName}`);
    expect(text).not.toContain("npm install @partner-api/client");
    expect(text).toContain("partner-api.yml Partner API (Variant R)");
    const document = await browser.get("/docs/partner-api.yml");
    expect(document.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(document.text).toContain("/api/v1/dns_records");
    expect(document.text).not.toContain("/api/v1/domains/{domain_id}/dns/{record_id}");
    expect((await browser.get("/docs/partner-api.d.yml")).text).toContain("/api/v1/domains/{domain_id}/dns/{record_id}");
    const html = await browser.get("/docs/reference/partner-api.html");
    expect(html.status).toBe(200);
    expect(html.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect((await browser.get("/docs/reference/partner-api.d.html")).status).toBe(404);
    expect(visibleText(index.text)).toMatch(/Not built \( ?npm run build:docs ?\)/);
  });

  it("renders the rule catalogue: every rule with the checks that prove it, linked from the portal", async () => {
    const browser = server.browser();
    expect((await browser.get("/docs/")).text).toContain('href="/docs/rules"');
    const rules = await browser.get("/docs/rules");
    expect(rules.status).toBe(200);
    const text = visibleText(rules.text);
    const catalogue = JSON.parse(readFileSync("generated/rules.json", "utf8")) as {
      families: Array<{ rules: Array<{ id: string; checks: string[] }> }>;
    };
    for (const rule of catalogue.families.flatMap((family) => family.rules)) {
      expect(text).toContain(rule.id);
      for (const check of rule.checks) expect(text).toContain(check);
    }
  });

  it("renders the changelog, linked from the portal: every release's section", async () => {
    const browser = server.browser();
    expect((await browser.get("/docs/")).text).toContain('href="/docs/changelog"');
    const changelog = await browser.get("/docs/changelog");
    expect(changelog.status).toBe(200);
    const source = readFileSync("CHANGELOG.md", "utf8");
    for (const [, release] of source.matchAll(/^## (.+)$/gm)) expect(visibleText(changelog.text)).toContain(release);
    expect(changelog.text).toContain('<h3 id="1-1-0-unreleased-breaking-changes">Breaking changes</h3>');
  });

  it("serves the client's tarball where its install command points, and under the name that stays", async () => {
    const index = await server.browser().get("/docs/");
    const command = /npm install (\S+)/.exec(visibleText(index.text))?.[1];
    expect(command).toBe(`http://dashboard.test/docs/client/${tarballName}`);
    for (const path of [new URL(command!).pathname, "/docs/client/partner-api-client.tgz"]) {
      const answer = await fetch(`${server.dashboardUrl}${path}`);
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.headers.get("content-type")).toBe("application/gzip");
      expect(answer.headers.get("content-disposition")).toBe(`attachment; filename=${path.split("/").at(-1)}`);
      expect(Buffer.from(await answer.arrayBuffer()).equals(tarball)).toBe(true);
    }
  });

  it("says how to make the client's tarball when it is not built", async () => {
    const away = mkdtempSync(join(tmpdir(), "portal-client-away-"));
    for (const file of [tarballName, "partner-api-client.tgz"]) renameSync(join(client, file), join(away, file));
    try {
      const text = visibleText((await server.browser().get("/docs/")).text);
      expect(text).toContain("its package is not built here ( npm run build:server builds it)");
      expect(text).toContain("npm pack --workspace @partner-api/client");
      expect(text).not.toContain("npm install");
      expect((await server.browser().get(`/docs/client/${tarballName}`)).status).toBe(404);
    } finally {
      for (const file of [tarballName, "partner-api-client.tgz"]) renameSync(join(away, file), join(client, file));
    }
  });

  it("serves only the files it lists, by no other spelling", async () => {
    const browser = server.browser();
    for (const path of [
      "/docs/..%2Fpackage.json",
      "/docs/reference/..%2F..%2Fpackage.json",
      "/docs/PARTNER-API.YML",
      "/docs/partner-api.yml/",
      "/docs/client/.build-record.json",
      "/docs/client/notes.txt",
      "/docs/client/..%2F..%2Fpackage.json",
      "/docs/client/partner-api-client-0.0.tgz",
    ])
      expect([path, (await browser.get(path)).status]).toEqual([path, 404]);
  });
});
