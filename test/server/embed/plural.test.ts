/**
 * Counted words by CLDR's plural rules: the categories each shipped language needs, the form a
 * count takes (French counts 0 as singular), the catalogues' counted sentences, and French
 * typography in every French sentence.
 */
import { describe, expect, it } from "vitest";
import { fr } from "../../../server/embed/i18n/messages-fr.js";
import { en } from "../../../server/embed/i18n/messages-en.js";
import { de } from "../../../server/embed/i18n/messages-de.js";
import { french } from "../../../server/embed/i18n/french-typography.js";
import { PLURAL_CATEGORIES, plural } from "../../../server/embed/i18n/plural.js";
import { SHIPPED_LANGUAGES } from "../../../server/platform/locale.js";

describe("plural", () => {
  it.each(SHIPPED_LANGUAGES)("knows the categories Intl.PluralRules uses for %s", (language) => {
    expect([...PLURAL_CATEGORIES[language]].sort()).toEqual([...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort());
  });

  it.each<[string, number, string]>([
    ["en", 0, "0 other"],
    ["en", 1, "1 one"],
    ["en", 2, "2 other"],
    ["en", 1_000_000, "1,000,000 other"],
    ["de", 0, "0 other"],
    ["de", 1, "1 one"],
    ["de", 2, "2 other"],
    ["fr", 0, "0 one"],
    ["fr", 1, "1 one"],
    ["fr", 1.5, "1,5 one"],
    ["fr", 2, "2 other"],
    ["fr", 1_000_000, "1\u202f000\u202f000 many"],
  ])("in %s, %d takes the form %j", (language, count, expected) => {
    const forms = { one: "# one", many: "# many", other: "# other" };
    expect(plural(language as "fr", count, forms)).toBe(expected);
  });

  it("makes each language's catalogue give exactly the forms its language has", () => {
    // @ts-expect-error French has a form for a round million ("1 000 000 de domaines").
    expect(plural("fr", 2, { one: "# domaine", other: "# domaines" })).toBe("2 domaines");
    // @ts-expect-error English has no such form.
    expect(plural("en", 2, { one: "# domain", many: "# domain", other: "# domains" })).toBe("2 domains");
  });
});

describe("counted sentences of the catalogues", () => {
  it.each<[number, string, string, string]>([
    [0, "0 records", "0 Einträge", "0 enregistrement"],
    [1, "1 record", "1 Eintrag", "1 enregistrement"],
    [2, "2 records", "2 Einträge", "2 enregistrements"],
  ])("%d DNS records", (count, english, german, french) => {
    expect([en.domains.recordCount(count), de.domains.recordCount(count), fr.domains.recordCount(count)]).toEqual([
      english,
      german,
      french,
    ]);
  });

  it("agrees a French past participle with its count", () => {
    expect(fr.notices.templateApplied("Fastmail", 0, "a.fr")).toBe("Fastmail\u00a0: 0 enregistrement ajouté à a.fr.");
    expect(fr.notices.templateApplied("Fastmail", 1, "a.fr")).toBe("Fastmail\u00a0: 1 enregistrement ajouté à a.fr.");
    expect(fr.notices.templateApplied("Fastmail", 5, "a.fr")).toBe("Fastmail\u00a0: 5 enregistrements ajoutés à a.fr.");
  });

  it.each<[number, string, string, string]>([
    [60, "1 minute", "1 Minute", "1 minute"],
    [300, "5 minutes", "5 Minuten", "5 minutes"],
    [3600, "1 hour", "1 Stunde", "1 heure"],
    [86_400, "24 hours", "24 Stunden", "24 heures"],
    [1, "1 second", "1 Sekunde", "1 seconde"],
    [90, "90 seconds", "90 Sekunden", "90 secondes"],
  ])("a TTL of %d seconds", (seconds, english, german, french) => {
    expect([en.dns.ttlWords(seconds), de.dns.ttlWords(seconds), fr.dns.ttlWords(seconds)]).toEqual([english, german, french]);
  });

  it("counts years for a renewal", () => {
    expect([en.controls.years(1), de.controls.years(1), fr.controls.years(1)]).toEqual(["1 year", "1 Jahr", "1 an"]);
    expect([en.controls.years(10), de.controls.years(10), fr.controls.years(10)]).toEqual(["10 years", "10 Jahre", "10 ans"]);
  });
});

/** Every sentence of a catalogue: its strings, and its functions called with stand-in values. */
function sentencesOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") return [String((value as (...args: string[]) => unknown)("x", "2", "y", "z"))];
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(sentencesOf);
  return [];
}

describe("French typography", () => {
  it("sets a no-break space before high punctuation and inside guillemets, in the sentence's own text only", () => {
    expect(french`Erreur : ${"a ?"} « ${"b"} » ; c ! d ?`).toBe("Erreur\u00a0: a ? «\u00a0b\u00a0»\u202f; c\u202f! d\u202f?");
  });

  it("leaves no ordinary space before : ; ? ! » or after « in any French sentence", () => {
    const loose = sentencesOf(fr).filter((sentence) => /[ ][:;?!»]|« /.test(sentence));
    expect(loose).toEqual([]);
  });
});
