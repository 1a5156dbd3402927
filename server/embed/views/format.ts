/** How dates and money read on the pages. */
import { formatCents, type Cents } from "../../money.js";
import { html } from "../../web/html.js";

/** A calendar date in UTC, with the full timestamp for machines. */
export const dateOf = (date: Date) => html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 10)}</time>`;

/** `12.99 USD`: the code, not a symbol, because several currencies use `$`. */
export const money = (amount: Cents | string, currency = "USD") =>
  `${typeof amount === "number" ? formatCents(amount) : amount} ${currency}`;
