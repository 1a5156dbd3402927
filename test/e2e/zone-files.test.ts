/**
 * A domain's zone file in the embedded interface, in a browser, in English and German: a file
 * chosen in the import form, its preview line by line, the apply and its notice, a file refused with
 * its error summary in focus, and the download, byte for byte the API's export. Each new state is
 * checked with axe-core and photographed (test-output/e2e/embed-<language>-<page>-<width>.png).
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { de } from "../../server/embed/i18n/messages-de.js";
import { en } from "../../server/embed/i18n/messages-en.js";
import { startEmbedTestServer, type EmbedTestServer } from "../support/embed-test-server.js";
import { checkPage } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";

let browser: Browser;
let s: EmbedTestServer;

beforeAll(async () => {
  [s, browser] = await Promise.all([startEmbedTestServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const LANGUAGES = { en: { locale: "en-US", t: en }, de: { locale: "de-DE", t: de } } as const;

/** A file as another provider exports it: its SOA and nameservers, which are skipped, and records of several types. */
const ZONE = `$ORIGIN adalovelace.com.
$TTL 3600
@   IN SOA ns1.other-dns.example. hostmaster.adalovelace.com. ( 2026112601 7200 3600 1209600 300 )
@   IN NS  ns1.partner-dns.invalid.
@   IN A   192.0.2.10
www IN CNAME adalovelace.com.
@   IN MX  10 mail.example.net.
@   IN TXT "v=spf1 include:_spf.example.net -all"
`;

/** The text of a page as read aloud: French and German typography's no-break spaces as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe.each(["en", "de"] as const)("zone files in %s", (language) => {
  const { t, locale } = LANGUAGES[language];
  let context: BrowserContext;
  let page: Page;
  let domainId: string;
  let domainPage: string;
  const check = (name: string) => checkPage(page, name, `embed-${language}`);

  beforeAll(async () => {
    await s.reset();
    const { data } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale } });
    domainId = (await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } })).data!.id;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    context.setDefaultTimeout(scaled(10_000));
    page = await context.newPage();
    await page.goto(data!.login_url);
    domainPage = new URL(`/domains/${domainId}`, page.url()).href;
    await page.goto(domainPage);
  });
  afterAll(() => context?.close());

  it("chooses a file in the import form and previews it line by line, changing nothing", async () => {
    await page.getByText(t.zoneFiles.importTitle, { exact: true }).click();
    await page.getByLabel(t.zoneFiles.file, { exact: true }).setInputFiles({
      name: "adalovelace.com.zone",
      mimeType: "text/dns",
      buffer: Buffer.from(ZONE),
    });
    await check("zone-import-form");
    await page.getByRole("button", { name: t.zoneFiles.preview }).click();
    await page.getByRole("heading", { level: 1, name: t.zoneFiles.previewTitle("adalovelace.com") }).waitFor();
    const rows = page.locator("table.zone-preview tbody tr");
    expect(await rows.count()).toBe(6);
    expect(plain(await rows.nth(2).innerText())).toMatch(new RegExp(`5\\s+${t.zoneFiles.actions.create}\\s+A\\s+@\\s+192\\.0\\.2\\.10`));
    expect(plain(await rows.nth(0).innerText())).toContain(t.zoneFiles.reasons.soa);
    expect((await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } })).data!.records.length).toBe(
      0,
    );
    await check("zone-import-preview");
  });

  it("applies exactly the file previewed, and says so", async () => {
    await page.getByRole("button", { name: t.zoneFiles.apply(4) }).click();
    await page.getByRole("status").waitFor();
    expect(plain(await page.getByRole("status").innerText())).toContain(plain(t.zoneFiles.imported(4, "adalovelace.com")));
    const records = (await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } })).data!.records;
    expect(records.map((record) => `${record.type} ${record.name}`).sort()).toEqual(["A @", "CNAME www", "MX @", "TXT @"]);
    await check("zone-imported");
  });

  it("refuses a file with a bad line, the summary in focus naming the line, and offers no apply", async () => {
    await page.getByText(t.zoneFiles.importTitle, { exact: true }).click();
    await page.getByLabel(t.zoneFiles.text, { exact: true }).fill("$INCLUDE other.zone\n@ 3600 IN A 192.0.2.20\n");
    await page.getByRole("button", { name: t.zoneFiles.preview }).click();
    const summary = page.locator(".error-summary");
    await summary.waitFor();
    await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(plain(await summary.innerText())).toContain(plain(t.zoneFiles.refusedLine(1, t.zoneFiles.problems.include_not_supported)));
    expect(
      await page
        .getByRole("button", { name: /./ })
        .filter({ hasText: t.zoneFiles.apply(1) })
        .count(),
    ).toBe(0);
    await check("zone-import-refused");
  });

  it("downloads the zone file, byte for byte the API's export", async () => {
    await page.goto(domainPage);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: t.zoneFiles.download }).click()]);
    expect(download.suggestedFilename()).toBe("adalovelace.com.zone");
    const body = await readFile((await download.path())!);
    const api = await s.api.GET("/api/v1/domains/{domain_id}/zone", { params: { path: { domain_id: domainId } }, parseAs: "arrayBuffer" });
    expect(body.equals(Buffer.from(api.data as unknown as ArrayBuffer))).toBe(true);
    expect(body.toString()).toContain("www");
  });
});
