/** How the dashboard writes times and durations: UTC, to the minute or second, in a <time> element. */
import { html, type Html } from "../../web/html.js";

export function when(date: Date | null | undefined, empty = "Never"): Html {
  if (!date) return html`${empty}`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time>`;
}

export const whenText = (text: string | null | undefined, empty = "—") => (text ? when(new Date(text)) : html`${empty}`);

export function duration(ms: number): string {
  return ms < 1000 ? `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
