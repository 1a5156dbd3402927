/**
 * Counted words ("1 record", "2 records") by the CLDR plural rules Intl.PluralRules knows, so a
 * language whose plurals are not "1 or else" says them right: French counts 0 as singular ("0 domaine")
 * and a round million apart ("1 000 000 de domaines").
 */
import type { Language } from "../../platform/locale.js";

/**
 * The cardinal categories each shipped language uses, as CLDR (and so Intl.PluralRules) names them.
 * A catalogue must give a form for each, and no other; the i18n tests hold this table to the rules
 * of the running Node, so a CLDR update that adds a category fails a test rather than falling back.
 */
export const PLURAL_CATEGORIES = {
  en: ["one", "other"],
  de: ["one", "other"],
  fr: ["one", "many", "other"],
} as const satisfies Record<Language, readonly Intl.LDMLPluralRule[]>;

/** One wording per category of the language; `#` stands for the count, written as the language writes numbers. */
export type PluralForms<L extends Language> = Record<(typeof PLURAL_CATEGORIES)[L][number], string>;

const rules = new Map<Language, { plural: Intl.PluralRules; numbers: Intl.NumberFormat }>();

function rulesOf(language: Language) {
  let found = rules.get(language);
  if (!found) rules.set(language, (found = { plural: new Intl.PluralRules(language), numbers: new Intl.NumberFormat(language) }));
  return found;
}

/** The form of `forms` the count takes in the language, with the count in place of `#`. */
export function plural<L extends Language>(language: L, count: number, forms: PluralForms<L>): string {
  const { plural: categoryOf, numbers } = rulesOf(language);
  const byCategory = forms as Partial<Record<Intl.LDMLPluralRule, string>>;
  // "other" is every language's catch-all: a category the table does not know yet reads as it.
  const form = byCategory[categoryOf.select(count)] ?? byCategory.other ?? "#";
  return form.replaceAll("#", numbers.format(count));
}
