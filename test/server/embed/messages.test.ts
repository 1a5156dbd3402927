/**
 * The embedded interface's words: every rule a user can break has a sentence in every shipped
 * language (never the catch-all), every catalogue says the same things, and the language is chosen as
 * the spec says (the partner's, then the browser's, then English).
 */
import { describe, expect, it } from "vitest";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import { recordConflict, recordViolations, type RecordDraft } from "../../../server/domain/dns/record-rules.js";
import { expandTemplate } from "../../../server/domain/dns/templates.js";
import type { ApiError } from "../../../server/platform/errors.js";
import { conflictMessage, friendlyErrors, problemErrors, violationErrors } from "../../../server/embed/i18n/form-errors.js";
import { localizerFor } from "../../../server/embed/i18n/localizer.js";
import { en, type Messages } from "../../../server/embed/i18n/messages-en.js";
import { chooseLocale, SHIPPED_LANGUAGES } from "../../../server/platform/locale.js";
import type { DomainRow } from "../../../server/domain/domains/domain-store.js";

const localizers = SHIPPED_LANGUAGES.map((language) => localizerFor({ language, tag: language }));

const domain = { name: "adalovelace.com", status: "active" } as DomainRow;

/** Records that break each rule of record-rules.ts (a rule not here is one the catalogue may have forgotten). */
const BROKEN: RecordDraft[] = [
  { type: "A", name: "my host", content: "192.0.2.1", ttl: 300, priority: null },
  {
    type: "A",
    name: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(50)}`,
    content: "192.0.2.1",
    ttl: 300,
    priority: null,
  },
  { type: "A", name: "@", content: "192.0.2.1", ttl: 30, priority: null },
  ...(["A", "AAAA", "CNAME", "MX", "NS", "SRV", "TXT", "ALIAS", "CAA", "HTTPS", "SVCB", "TLSA"] as const).map((type) => ({
    type,
    name: "x",
    content: type === "TXT" ? "y".repeat(256) : "not valid!",
    ttl: 300,
    priority: type === "MX" ? 10 : null,
  })),
  { type: "CNAME", name: "@", content: "example.net", ttl: 300, priority: null },
  { type: "MX", name: "@", content: "mail.example.net", ttl: 300, priority: null },
  { type: "SRV", name: "_sip._tcp", content: "10 5 5060 sip.example.net", ttl: 300, priority: 20 },
  { type: "A", name: "@", content: "192.0.2.1", ttl: 300, priority: 5 },
  { type: "HTTPS", name: "@", content: "1 . alpn=h2", ttl: 300, priority: 5 },
  { type: "TLSA", name: "www", content: `3 1 1 ${"a".repeat(64)}`, ttl: 300, priority: null },
];

function keysOf(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [path];
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, `${path}.${key}`));
}

describe("the catalogues", () => {
  it("have the same sentences in every language", () => {
    for (const l of localizers) expect(keysOf(l.t).sort()).toEqual(keysOf(en).sort());
  });

  it("differ from English in every other language (nothing left untranslated but names)", () => {
    const same = (a: Messages, b: Messages) =>
      keysOf(a).filter((key) => {
        const read = (messages: Messages) =>
          key
            .split(".")
            .slice(1)
            .reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], messages);
        return typeof read(a) === "string" && read(a) === read(b);
      });
    // Product names, record types and words such as "Status", "Type", "Total" read the same in German or French.
    for (const l of localizers.filter((localizer) => localizer.locale.language !== "en"))
      expect(
        same(en, l.t).filter(
          (key) =>
            !/templates\.titles|typeLabels\.(TXT|SRV)|\.status$|\.domain$|\.name$|\.type$|\.total$|columns\.(name|ttl|actions)|changedName|changedTtl/.test(
              key,
            ),
        ),
      ).toEqual([]);
  });

  it("name a label and a sentence for a missing value of every template variable", () => {
    const variables = Object.values(dnsTemplates).flatMap((template) => Object.keys(template.variables));
    for (const l of localizers)
      for (const name of variables)
        expect(l.t.templates.variables[name]).toMatchObject({ label: expect.any(String), missing: expect.any(String) });
  });
});

describe("a broken rule in the user's words", () => {
  it.each(
    BROKEN.map((draft) => [`${draft.type} ${draft.name.slice(0, 20)} ${draft.content.slice(0, 12)} ${draft.ttl} ${draft.priority}`, draft]),
  )("%s: every violation has its own sentence in every language", (_name, draft) => {
    const violations = recordViolations(draft, domain.name);
    expect(violations.length).toBeGreaterThan(0);
    for (const l of localizers) {
      const errors = violationErrors(l, violations, { domain, record: draft });
      expect(Object.keys(errors.fields).sort()).toEqual([...new Set(violations.map((v) => v.field))].sort());
      expect(errors.summary).not.toContain(l.t.errors.unexpected);
    }
  });

  it("every zone conflict has a sentence naming the name", () => {
    const www = (type: RecordDraft["type"], content: string): RecordDraft => ({ type, name: "www", content, ttl: 300, priority: null });
    const pairs: Array<[RecordDraft, RecordDraft]> = [
      [www("A", "192.0.2.1"), www("A", "192.0.2.1")],
      [www("CNAME", "example.net"), www("A", "192.0.2.1")],
      [www("A", "192.0.2.1"), www("CNAME", "example.net")],
      [www("TXT", "v=spf1 -all"), www("TXT", "v=spf1 mx -all")],
      [
        { ...www("TXT", "v=DMARC1; p=none"), name: "_dmarc" },
        { ...www("TXT", "v=DMARC1; p=reject"), name: "_dmarc" },
      ],
      [
        { ...www("ALIAS", "site.example.net"), name: "@" },
        { ...www("A", "192.0.2.1"), name: "@" },
      ],
      [
        { ...www("AAAA", "2001:db8::1"), name: "@" },
        { ...www("ALIAS", "site.example.net"), name: "@" },
      ],
    ];
    for (const [draft, existing] of pairs) {
      const conflict = recordConflict(draft, [existing]);
      expect(conflict).not.toBeNull();
      for (const l of localizers) expect(conflictMessage(l, conflict!.code, draft)).toContain(draft.name);
    }
  });

  it.each(Object.keys(dnsTemplates) as DnsTemplateId[])("template %s: each variable's refusals have sentences", (id) => {
    for (const [name, spec] of Object.entries(dnsTemplates[id].variables as Record<string, { required: boolean }>)) {
      const values: Array<string | undefined> = [spec.required ? undefined : "x", "not valid at all!", "x".repeat(300)];
      for (const value of values) {
        let refusal: ApiError | null = null;
        try {
          expandTemplate(id, domain.name, value === undefined ? {} : { [name]: value });
        } catch (error) {
          refusal = error as ApiError;
        }
        if (!refusal || refusal.details?.field !== `variables.${name}`) continue;
        for (const l of localizers)
          expect(friendlyErrors(l, refusal, { domain, template: id }).summary).not.toContain(l.t.errors.unexpected);
      }
    }
  });

  it.each([
    [{ field: "domain_name", code: "not_available" }, { query: "adalovelace.com" }],
    [{ field: "domain_name", code: "invalid_value" }, { query: "x.uk" }],
    [{ field: "q", code: "invalid_format" }, { query: "a b" }],
    [{ field: "years", code: "out_of_range" }, {}],
    [
      { field: "years", code: "out_of_range" },
      { domain, renewableYears: 3 },
    ],
    [{ field: "status", code: "invalid_status" }, { domain }],
    [{ field: "ttl", code: "invalid_type" }, {}],
    [{ field: "priority", code: "invalid_type" }, {}],
    [{ field: "content", code: "control_character" }, {}],
    [{ field: "content", code: "repeated_field" }, {}],
    [{ field: "etag", code: "missing_required_field" }, {}],
  ])("%j has a sentence in every language", (problem, situation) => {
    for (const l of localizers) expect(problemErrors(l, problem, situation).summary).not.toContain(l.t.errors.unexpected);
  });
});

describe("choosing the language", () => {
  it.each<[string | null, string | undefined, string, string]>([
    ["de-CH", "en-US", "de", "de-CH"],
    ["de-ch", undefined, "de", "de-CH"],
    ["fr", "de-CH", "fr", "fr"],
    ["fr-CA", undefined, "fr", "fr-CA"],
    ["fr-ch", "en", "fr", "fr-CH"],
    [null, "fr-CA,fr;q=0.9,en;q=0.5", "fr", "fr-CA"],
    ["it-IT", "de-AT,de;q=0.9", "de", "de-AT"],
    ["it-IT", "it", "en", "en"],
    [null, "it;q=1, de;q=0.5, en;q=0.8", "en", "en"],
    [null, "da, en-GB;q=0.8, en;q=0.7", "en", "en-GB"],
    [null, "de;q=0, en", "en", "en"],
    [null, "*", "en", "en"],
    [null, "not a header, ;;;", "en", "en"],
    [null, undefined, "en", "en"],
  ])("the partner's %j with Accept-Language %j reads %s, formatted for %s", (partner, header, language, tag) => {
    expect(chooseLocale(partner, header)).toEqual({ language, tag });
  });

  it("formats dates and prices for the whole tag", () => {
    const date = new Date("2028-11-22T10:00:00Z");
    expect(localizerFor({ language: "de", tag: "de-DE" }).dateText(date)).toBe("22. November 2028");
    expect(localizerFor({ language: "en", tag: "en-US" }).dateText(date)).toBe("November 22, 2028");
    expect(localizerFor({ language: "en", tag: "en-GB" }).dateText(date)).toBe("22 November 2028");
    expect(localizerFor({ language: "en", tag: "en-US" }).money(2598, "USD")).toBe("$25.98");
    expect(
      localizerFor({ language: "de", tag: "de-DE" })
        .money(2598, "USD")
        .replace(/\u00a0/g, " "),
    ).toBe("25,98 $");
    expect(
      localizerFor({ language: "de", tag: "de-CH" })
        .money(2598, "USD")
        .replace(/\u00a0/g, " "),
    ).toBe("$ 25.98");
    expect(localizerFor({ language: "fr", tag: "fr" }).dateText(date)).toBe("22 novembre 2028");
    expect(localizerFor({ language: "fr", tag: "fr" }).money(2598, "EUR")).toBe("25,98\u00a0€");
    expect(localizerFor({ language: "fr", tag: "fr-CA" }).money(2598, "USD")).toBe("25,98\u00a0$\u00a0US");
  });
});
