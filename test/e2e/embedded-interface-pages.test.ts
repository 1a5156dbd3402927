/**
 * Every page of the embedded interface, as a partner's user meets it, in each shipped language: the
 * review before money is spent and the notice after, people's words at the fields, the partner's
 * accent and logo, the records table, search by word, settings that say what changed. Each page is
 * checked with axe-core (WCAG 2.1 A and AA), for sideways scrolling, and photographed at 1280 and
 * 375 pixels (test-output/e2e/embed-<language>-<page>-<width>.png).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { startEmbedTestServer, type EmbedTestServer } from "../support/embed-test-server.js";
import { solidPng } from "../support/png.js";
import { checkPage } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";

let browser: Browser;
let s: EmbedTestServer;

/** The partner's look: a purple the interface accepts (AA on white and the page's grey), and a logo. */
const ACCENT = "#6a1b9a";

beforeAll(async () => {
  [s, browser] = await Promise.all([startEmbedTestServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

async function openSession(locale: string | undefined, acceptLanguage = "en-US"): Promise<{ context: BrowserContext; page: Page }> {
  const { data, response } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", ...(locale ? { locale } : {}) } });
  expect(response.status).toBe(201);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    extraHTTPHeaders: { "Accept-Language": acceptLanguage },
  });
  context.setDefaultTimeout(scaled(10_000));
  const page = await context.newPage();
  await page.goto(data!.login_url);
  return { context, page };
}

const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

/** What a notice says; Intl separates an amount from its symbol, and French its high punctuation, with no-break spaces. */
const statusOf = async (page: Page) => (await page.getByRole("status").innerText()).replace(/[\u00a0\u202f]/g, " ");

/** The words each language's journey looks for. */
const WORDS = {
  en: {
    /** The session's locale, the browser's Accept-Language, and the page's lang they give. */
    session: { locale: undefined, acceptLanguage: "en-US,en;q=0.9", lang: "en-US" },
    logoAlt: "partner_a logo",
    price: /\$\d+\.\d\d/,
    available: /Available/,
    registerFor: "Register for",
    typeColumn: /^Type/,
    name: "Name",
    editMx: "Edit MX record @",
    editA: "Edit A record api",
    spfTwice: "already has an SPF record",
    autoRenew: "Auto-renew",
    postalAddress: "your postal address",
    noRecords: "0 records of adalovelace.com",
    oneRecord: "1 record of adalovelace.com",
    yourDomains: "Your domains",
    search: "Search",
    searchLabel: "Domain name or word",
    review: /^Review purchase/,
    buy: "Buy for $25.98",
    purchased: "adalovelace.com is yours. $25.98 was charged for 2 years; it is registered until November 22, 2028.",
    addRecord: "Add record",
    type: "Type",
    value: "Value",
    badIp: "Enter an IPv4 address such as 192.0.2.1.",
    renewReview: "Review renewal",
    renewFor: "Renew for $14.99",
    renewed: "adalovelace.com is renewed for 1 year: $14.99 was charged, and it is registered until November 22, 2029.",
    autoRenewOff: "Auto-renew is off for adalovelace.com. It expires on November 22, 2029 unless you renew it.",
    privacySwitch: "WHOIS privacy",
    privacyConfirm: "Turn off WHOIS privacy",
    privacyOff: "WHOIS privacy is off for adalovelace.com: your contact details are public in WHOIS.",
    deleteLink: "Delete A record api",
    deleteConfirm: "Delete record",
    deleted: "The A record api is deleted.",
    restore: "Restore it",
    restored: "The A record api is restored.",
    webHost: "Web host",
    ipLabel: "Your server's IPv4 address",
    reviewTemplate: "Review Web host",
    applyTemplate: "Add 2 records",
    applied: "Web host: 2 records added to adalovelace.com.",
    sessionEnded: "This session has expired",
  },
  de: {
    // German is the partner's choice for the session, over the browser's English.
    session: { locale: "de-DE", acceptLanguage: "en-US", lang: "de-DE" },
    logoAlt: "Logo von partner_a",
    price: /\d,\d\d\s\$/,
    available: /Verfügbar/,
    registerFor: "Registrieren für",
    typeColumn: /^Typ/,
    name: "Name",
    editMx: "Bearbeiten MX-Eintrag @",
    editA: "Bearbeiten A-Eintrag api",
    spfTwice: "hat bereits einen SPF-Eintrag",
    autoRenew: "Automatisch verlängern",
    postalAddress: "Ihre Postanschrift",
    noRecords: "0 Einträge von adalovelace.com",
    oneRecord: "1 Eintrag von adalovelace.com",
    yourDomains: "Ihre Domains",
    search: "Suchen",
    searchLabel: "Domainname oder Wort",
    review: /^Kauf prüfen/,
    buy: "Für 25,98 $ kaufen",
    purchased: "adalovelace.com gehört Ihnen. Für 2 Jahre wurden 25,98 $ berechnet; die Domain ist bis 22. November 2028 registriert.",
    addRecord: "Eintrag hinzufügen",
    type: "Typ",
    value: "Wert",
    badIp: "Geben Sie eine IPv4-Adresse wie 192.0.2.1 ein.",
    renewReview: "Verlängerung prüfen",
    renewFor: "Für 14,99 $ verlängern",
    renewed: "adalovelace.com ist um 1 Jahr verlängert: 14,99 $ wurden berechnet, und die Domain ist bis 22. November 2029 registriert.",
    autoRenewOff:
      "Die automatische Verlängerung ist aus für adalovelace.com. Die Domain läuft am 22. November 2029 ab, wenn Sie sie nicht verlängern.",
    privacySwitch: "WHOIS-Datenschutz",
    privacyConfirm: "WHOIS-Datenschutz ausschalten",
    privacyOff: "Der WHOIS-Datenschutz ist aus für adalovelace.com: Ihre Kontaktdaten sind im WHOIS öffentlich.",
    deleteLink: "Löschen A-Eintrag api",
    deleteConfirm: "Eintrag löschen",
    deleted: "Der A-Eintrag api ist gelöscht.",
    restore: "Wiederherstellen",
    restored: "Der A-Eintrag api ist wiederhergestellt.",
    webHost: "Webhosting",
    ipLabel: "IPv4-Adresse Ihres Servers",
    reviewTemplate: "Webhosting prüfen",
    applyTemplate: "2 Einträge hinzufügen",
    applied: "Webhosting: 2 Einträge zu adalovelace.com hinzugefügt.",
    sessionEnded: "Diese Sitzung ist abgelaufen",
  },
  fr: {
    // French is the partner's choice for the session, over the browser's German; 0 and 1 are both singular.
    session: { locale: "fr", acceptLanguage: "de-CH,de;q=0.9", lang: "fr" },
    logoAlt: "Logo de partner_a",
    price: /\d,\d\d\s\$US/,
    available: /Disponible/,
    registerFor: "Enregistrer pour",
    typeColumn: /^Type/,
    name: "Nom",
    editMx: "Modifier l’enregistrement MX @",
    editA: "Modifier l’enregistrement A api",
    spfTwice: "a déjà un enregistrement SPF",
    autoRenew: "Renouvellement automatique",
    postalAddress: "votre adresse postale",
    noRecords: "0 enregistrement de adalovelace.com",
    oneRecord: "1 enregistrement de adalovelace.com",
    yourDomains: "Vos domaines",
    search: "Rechercher",
    searchLabel: "Nom de domaine ou mot",
    review: /^Vérifier l’achat/,
    buy: "Acheter pour 25,98 $US",
    purchased: "adalovelace.com est à vous. Nous avons prélevé 25,98 $US pour 2 ans ; le domaine est enregistré jusqu’au 22 novembre 2028.",
    addRecord: "Ajouter l’enregistrement",
    type: "Type",
    value: "Valeur",
    badIp: "Saisissez une adresse IPv4 comme 192.0.2.1.",
    renewReview: "Vérifier le renouvellement",
    renewFor: "Renouveler pour 14,99 $US",
    renewed:
      "adalovelace.com est renouvelé pour 1 an : nous avons prélevé 14,99 $US, et le domaine est enregistré jusqu’au 22 novembre 2029.",
    autoRenewOff:
      "Le renouvellement automatique est désactivé pour adalovelace.com. Le domaine expire le 22 novembre 2029, sauf si vous le renouvelez.",
    privacySwitch: "Confidentialité WHOIS",
    privacyConfirm: "Désactiver la confidentialité WHOIS",
    privacyOff: "La confidentialité WHOIS est désactivée pour adalovelace.com : vos coordonnées sont publiques dans le WHOIS.",
    deleteLink: "Supprimer l’enregistrement A api",
    deleteConfirm: "Supprimer l’enregistrement",
    deleted: "L’enregistrement A api est supprimé.",
    restore: "Le restaurer",
    restored: "L’enregistrement A api est restauré.",
    webHost: "Hébergement web",
    ipLabel: "Adresse IPv4 de votre serveur",
    reviewTemplate: "Vérifier Hébergement web",
    applyTemplate: "Ajouter 2 enregistrements",
    applied: "Hébergement web : 2 enregistrements ajoutés à adalovelace.com.",
    sessionEnded: "Cette session a expiré",
  },
} as const;

describe.each(["en", "de", "fr"] as const)("the embedded interface in %s", (language) => {
  const words = WORDS[language];
  let context: BrowserContext;
  let page: Page;
  const check = (name: string) => checkPage(page, name, `embed-${language}`);

  beforeAll(async () => {
    await s.reset();
    await s.services.persistence.branding.setAccentColour("partner_a", "sandbox", ACCENT, new Date());
    await s.services.persistence.branding.setLogo(
      "partner_a",
      "sandbox",
      { type: "image/png", bytes: solidPng(120, 40, [106, 27, 154]) },
      new Date(),
    );
    ({ context, page } = await openSession(words.session.locale, words.session.acceptLanguage));
  });
  afterAll(() => context?.close());

  it("speaks the language, with the partner's logo and accent", async () => {
    await page.getByRole("heading", { name: words.yourDomains, level: 1 }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe(words.session.lang);
    expect(await page.locator("img.partner-logo").getAttribute("alt")).toBe(words.logoAlt);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim())).toBe(ACCENT);
    await check("domains-empty");
  });

  it("searches a word on every ending, with price and availability", async () => {
    await page.goto(`${s.embedUrl}/search`);
    await check("search");
    await page.getByLabel(words.searchLabel).fill("adalovelace");
    await page.getByRole("button", { name: words.search, exact: true }).click();
    const rows = page.locator(".name-row");
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(20);
    expect(await text(page, ".name-row")).toMatch(/adalovelace\.\w+/);
    expect(await page.locator(".name-row .name-row-price").first().innerText()).toMatch(words.price);
    await check("search-word");
  });

  it("shows a name's result apart from the input, with priced suggestions", async () => {
    await page.goto(`${s.embedUrl}/search?q=adalovelace.com`);
    const input = await page.getByLabel(words.searchLabel).boundingBox();
    const card = await page.locator(".result").boundingBox();
    // The card starts below the search form's button, with room between them.
    const button = await page.getByRole("button", { name: words.search, exact: true }).boundingBox();
    expect(card!.y).toBeGreaterThanOrEqual(Math.max(input!.y + input!.height, button!.y + button!.height) + 12);
    expect(await page.locator(".result .name-row").count()).toBeGreaterThan(0);
    expect(await page.locator(".result .name-row").first().innerText()).toMatch(words.available);
    await check("search-name");
  });

  it("wraps a long name at its dots and hyphens on a phone", async () => {
    await page.goto(`${s.embedUrl}/search?q=${"the-longest-name-anyone-could-think-of-for-a-domain-today"}.com`);
    expect(await page.locator("#result-name wbr").count()).toBeGreaterThan(5);
    await check("search-long-name");
    await page.setViewportSize({ width: 375, height: 900 });
    const heading = await page.locator("#result-name").boundingBox();
    expect(heading!.height).toBeGreaterThan(40);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("reviews the purchase with its total before anything is charged", async () => {
    await page.goto(`${s.embedUrl}/search?q=adalovelace.com`);
    await page.getByLabel(words.registerFor).selectOption("2");
    await page.getByRole("button", { name: words.review }).click();
    await page.getByRole("button", { name: words.buy }).waitFor();
    const spent = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(spent.data!.total_spent).toBe("0.00");
    await check("purchase-review");
  });

  it("buys, and is told what was charged and until when", async () => {
    await page.getByRole("button", { name: words.buy }).click();
    await page.getByRole("status").waitFor();
    expect(await statusOf(page)).toBe(words.purchased);
    const spent = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(spent.data!.total_spent).toBe("25.98");
    await check("purchased");
  });

  it("counts a domain's records by the language's plural rules, 0 and 1 alike", async () => {
    const owned = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } });
    const domainId = owned.data!.domains[0]!.id;
    await page.getByRole("navigation").getByRole("link", { name: words.yourDomains }).click();
    await page.getByRole("link", { name: words.noRecords, exact: true }).waitFor();
    const added = await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "counted", content: "192.0.2.99", ttl: 300 },
    });
    expect(added.response.status).toBe(201);
    await page.reload();
    await page.getByRole("link", { name: words.oneRecord, exact: true }).waitFor();
    await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domainId, record_id: added.data!.id } },
    });
    await page.goto(`${s.embedUrl}/domains/${domainId}`);
  });

  it("says a wrong value in people's words, at its field", async () => {
    expect(await page.getByLabel("TTL").inputValue()).toBe("300");
    await page.getByLabel(words.type, { exact: true }).selectOption("A");
    await page.getByLabel(words.value, { exact: true }).fill("not an address");
    await page.getByRole("button", { name: words.addRecord }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.locator("#add-content-error").innerText()).toContain(words.badIp);
    await check("record-error");
  });

  it("lists records as a table that sorts, and edits a record with only its type's fields", async () => {
    for (const [type, name, content, priority] of [
      ["A", "api", "192.0.2.10", ""],
      ["MX", "@", "mail.adalovelace.com", "10"],
      ["TXT", "@", "v=spf1 include:_spf.a-very-long-provider-name.example.com ~all", ""],
    ] as const) {
      await page.getByLabel(words.type, { exact: true }).selectOption(type);
      await page.getByLabel(words.name, { exact: true }).fill(name);
      await page.getByLabel(words.value, { exact: true }).fill(content);
      if (priority) await page.locator("#add-priority").fill(priority);
      await page.getByRole("button", { name: words.addRecord }).click();
      await page.getByRole("status").waitFor();
    }
    const table = page.getByRole("table");
    expect(await table.locator("tbody tr").count()).toBe(3);
    // By name first (@ before api), then by type; then by type, both ways.
    expect(await table.locator("tbody tr td:first-child").allInnerTexts()).toEqual(["MX", "TXT", "A"]);
    await table.getByRole("link", { name: words.typeColumn }).click();
    expect(await page.locator("th[aria-sort]").getAttribute("aria-sort")).toBe("ascending");
    expect(await table.locator("tbody tr td:first-child").allInnerTexts()).toEqual(["A", "MX", "TXT"]);
    await page.getByRole("table").getByRole("link", { name: words.typeColumn }).click();
    expect(await page.locator("th[aria-sort]").getAttribute("aria-sort")).toBe("descending");
    expect(await page.getByRole("table").locator("tbody tr td:first-child").allInnerTexts()).toEqual(["TXT", "MX", "A"]);
    await check("records");
    await page.getByRole("link", { name: words.editMx }).click();
    expect(await page.locator("#edit-priority").count()).toBe(1);
    await check("record-edit-mx");
    await page.goBack();
    await page.getByRole("link", { name: words.editA }).click();
    expect(await page.locator("#edit-priority").count()).toBe(0);
    await check("record-edit-a");
    await page.goBack();
  });

  it("asks before deleting, also without JavaScript, and restores a deleted record", async () => {
    // The interface's one script is not loaded: what remains is what a browser without JavaScript gets.
    const plain = await context.newPage();
    await plain.route("**/assets/embed.js", (route) => route.abort());
    await plain.goto(page.url().split("?")[0]!);
    await plain.getByRole("link", { name: words.deleteLink }).click();
    await plain.getByRole("button", { name: words.deleteConfirm }).waitFor();
    await checkPage(plain, "record-delete", `embed-${language}`);
    await plain.getByRole("button", { name: words.deleteConfirm }).click();
    await plain.getByRole("status").waitFor();
    expect(await statusOf(plain)).toContain(words.deleted);
    expect(await plain.getByRole("table").locator("tbody tr").count()).toBe(2);
    await checkPage(plain, "record-deleted", `embed-${language}`);
    await plain.getByRole("button", { name: words.restore }).click();
    await plain.getByRole("status").waitFor();
    expect(await statusOf(plain)).toBe(words.restored);
    expect(await plain.getByRole("table").locator("tbody tr").count()).toBe(3);
    await checkPage(plain, "record-restored", `embed-${language}`);
    await plain.close();
  });

  it("labels a template's variables in words, previews its records with the value typed, and reviews them", async () => {
    await page.reload();
    // A template whose records conflict with the zone is refused at its review, in words.
    await page.getByText("Fastmail", { exact: true }).click();
    await page.locator("#template-fastmail").getByRole("button").click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").innerText()).toContain(words.spfTwice);
    await check("template-conflict");
    await page.goBack();
    await page.getByText(words.webHost, { exact: true }).click();
    const preview = page.locator("#template-web-host .template-records");
    expect(await preview.innerText()).toContain(`[${words.ipLabel}]`);
    await page.getByLabel(words.ipLabel).fill("192.0.2.7");
    expect(await preview.innerText()).toContain("A @ 192.0.2.7");
    expect(await preview.innerText()).not.toContain("%ip%");
    await check("template-form");
    await page.getByRole("button", { name: words.reviewTemplate }).click();
    await page.getByRole("button", { name: words.applyTemplate }).waitFor();
    expect(await page.getByRole("table").innerText()).toContain("192.0.2.7");
    await check("template-review");
    await page.getByRole("button", { name: words.applyTemplate }).click();
    await page.getByRole("status").waitFor();
    expect(await statusOf(page)).toBe(words.applied);
    await check("template-applied");
  });

  it("reviews a renewal with its total, renews, and says until when", async () => {
    await page.getByRole("navigation").getByRole("link", { name: words.yourDomains }).click();
    await check("domains");
    await page.getByRole("button", { name: words.renewReview }).click();
    await page.getByRole("button", { name: words.renewFor }).waitFor();
    await check("renewal-review");
    await page.getByRole("button", { name: words.renewFor }).click();
    await page.getByRole("status").waitFor();
    expect(await statusOf(page)).toBe(words.renewed);
    await check("renewed");
  });

  it("says what a switch changed, and warns before WHOIS privacy goes off", async () => {
    await page.getByRole("switch", { name: words.autoRenew }).click();
    await page.getByRole("status").waitFor();
    expect(await statusOf(page)).toBe(words.autoRenewOff);
    await check("auto-renew-off");
    await page.getByRole("switch", { name: words.privacySwitch }).click();
    await page.getByRole("button", { name: words.privacyConfirm }).waitFor();
    expect(await page.locator("main").innerText()).toContain(words.postalAddress);
    await check("whois-privacy-warning");
    await page.getByRole("button", { name: words.privacyConfirm }).click();
    await page.getByRole("status").waitFor();
    expect(await statusOf(page)).toBe(words.privacyOff);
    await check("whois-privacy-off");
  });

  it("shows the session-ended page in the browser's language", async () => {
    const ended = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { "Accept-Language": language } });
    const endedPage = await ended.newPage();
    await endedPage.goto(`${s.embedUrl}/session/${"A".repeat(43)}`);
    await endedPage.getByRole("heading", { name: words.sessionEnded }).waitFor();
    await checkPage(endedPage, "session-ended", `embed-${language}`);
    await ended.close();
  });
});

describe("choosing the language", () => {
  it("follows the browser when the partner chose none, and when it chose a language not shipped", async () => {
    await s.reset();
    for (const [locale, header, heading] of [
      [undefined, "de-CH,de;q=0.9,en;q=0.5", "Ihre Domains"],
      [undefined, "fr-CH,fr;q=0.9,en;q=0.5", "Vos domaines"],
      ["fr-CA", "de", "Vos domaines"],
      ["it-IT", "de", "Ihre Domains"],
      ["it-IT", "it", "Your domains"],
      ["en-GB", "de", "Your domains"],
    ] as const) {
      const { context, page } = await openSession(locale, header);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await context.close();
    }
  });
});
