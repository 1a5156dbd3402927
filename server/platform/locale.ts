/**
 * Which language a page speaks, and how it writes dates and prices. The messages come in the
 * languages shipped (SHIPPED_LANGUAGES); the whole tag chosen (de-CH, en-GB) formats numbers and
 * dates with Intl, so a Swiss reader gets Swiss figures in German or French words.
 *
 * The partner's choice for the session (`locale` of POST /api/v1/users) comes first when its
 * language is shipped; then the browser's Accept-Language, best quality first; then English.
 */
import Negotiator from "negotiator";

export const SHIPPED_LANGUAGES = ["en", "de", "fr"] as const;
export type Language = (typeof SHIPPED_LANGUAGES)[number];

export interface Locale {
  /** The language of the messages. */
  language: Language;
  /** The BCP 47 tag dates and prices are formatted for; its language is `language`. */
  tag: string;
}

const DEFAULT_LOCALE: Locale = { language: "en", tag: "en" };

const isShipped = (language: string): language is Language => (SHIPPED_LANGUAGES as readonly string[]).includes(language);

/** The tag in its canonical case (de-ch becomes de-CH), or null when it is not well-formed BCP 47. */
export function canonicalLocaleTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The locale a tag asks for, when its language is shipped. */
function shippedLocaleOf(tag: string): Locale | null {
  const canonical = canonicalLocaleTag(tag);
  if (canonical === null) return null;
  const language = new Intl.Locale(canonical).language;
  return isShipped(language) ? { language, tag: canonical } : null;
}

/** The partner's choice for the session, else the browser's preference, else English. */
export function chooseLocale(sessionLocale: string | null | undefined, acceptLanguage: string | undefined): Locale {
  if (sessionLocale) {
    const chosen = shippedLocaleOf(sessionLocale);
    if (chosen) return chosen;
  }
  if (acceptLanguage) {
    // Negotiator orders the header's tags by quality and drops q=0; "*" names no language.
    for (const tag of new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages()) {
      const chosen = tag === "*" ? null : shippedLocaleOf(tag);
      if (chosen) return chosen;
    }
  }
  return DEFAULT_LOCALE;
}
