/** A page's language at work: its messages, and dates, prices and numbers written for its locale with Intl. */
import type { Cents } from "../../platform/money.js";
import { html, type Html } from "../../web/html.js";
import type { Locale } from "../../platform/locale.js";
import { de } from "./messages-de.js";
import { en, type Messages } from "./messages-en.js";
import { fr } from "./messages-fr.js";

const CATALOGUES: Record<Locale["language"], Messages> = { en, de, fr };

export interface Localizer {
  locale: Locale;
  t: Messages;
  /** A calendar date in UTC, written out for the locale, with the full timestamp for machines. */
  date(date: Date): Html;
  /** The same date as plain text, for sentences. */
  dateText(date: Date): string;
  /** An amount in cents, with its currency as the locale writes it (US$12.99, 12,99 $). */
  money(amount: Cents, currency: string): string;
  number(value: number): string;
}

const localizers = new Map<string, Localizer>();

/** One per locale tag, kept: Intl formatters are costly to build and free to reuse. */
export function localizerFor(locale: Locale): Localizer {
  const cached = localizers.get(locale.tag);
  if (cached) return cached;
  const dates = new Intl.DateTimeFormat(locale.tag, { dateStyle: "long", timeZone: "UTC" });
  const numbers = new Intl.NumberFormat(locale.tag);
  const currencies = new Map<string, Intl.NumberFormat>();
  const currency = (code: string) => {
    let format = currencies.get(code);
    if (!format) currencies.set(code, (format = new Intl.NumberFormat(locale.tag, { style: "currency", currency: code })));
    return format;
  };
  const localizer: Localizer = {
    locale,
    t: CATALOGUES[locale.language],
    date: (date) => html`<time datetime="${date.toISOString()}">${dates.format(date)}</time>`,
    dateText: (date) => dates.format(date),
    // Cents are whole numbers: divided by 100 they are exact enough for two decimals.
    money: (amount, code) => currency(code).format(amount / 100),
    number: (value) => numbers.format(value),
  };
  // Tags come from requests: the cache holds well-formed tags only, and at most a few hundred exist in practice.
  if (localizers.size < 500) localizers.set(locale.tag, localizer);
  return localizer;
}
