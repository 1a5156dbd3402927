/**
 * HTML from tagged templates: every interpolated value is escaped unless it is already Html, so a
 * value from the store or the request can never become markup. No template engine needed.
 */
import { replaceControlCharacters } from "../platform/plain-text.js";

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template accepts: false, null and undefined render nothing, so `${cond && html`...`}` works. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Control characters are no text a page can show (in HTML they are parse errors, NUL becomes U+FFFD,
 * and an input's value silently drops line breaks): each is shown as U+FFFD, so text stored before
 * they were refused is visibly damaged rather than invisibly different.
 */
export const escapeHtml = (text: string) => replaceControlCharacters(text, "\uFFFD").replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}
