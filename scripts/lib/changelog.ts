/**
 * CHANGELOG.md rendered for the developer portal's Changelog page (generated/changelog.html, a
 * fragment the portal puts in its layout): rendered when generating, so the server needs no
 * Markdown renderer. The changelog is the project's own text; marked renders it as CommonMark
 * with GitHub's tables, and raw HTML in it is escaped all the same.
 */
import { readFileSync } from "node:fs";
import { Marked } from "marked";
import { escapeHtml } from "../../server/web/html.js";

export const CHANGELOG_PATH = "CHANGELOG.md";

/** Heading ids from the heading's text, so a version's section can be linked (#1-1-0). */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * The changelog's body as HTML. Its title (the document's `#` heading) is left out: the portal's
 * page has its own. Headings get ids, those below a release's own prefixed with the release's
 * (`#1-1-0-added`), so each is unique in the page.
 */
export function renderChangelogHtml(markdown: string = readFileSync(CHANGELOG_PATH, "utf8")): string {
  let release = "";
  const marked = new Marked({
    gfm: true,
    renderer: {
      html: ({ text }) => escapeHtml(text),
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        if (depth === 1) return "";
        if (depth === 2) release = slug(inner);
        const id = depth === 2 ? release : `${release}-${slug(inner)}`;
        return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
