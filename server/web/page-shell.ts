/**
 * The document every page of the HTML front doors is: the shared stylesheet before the front
 * door's own (which overrides it), the icon, one deferred script, a skip link to the main region.
 * Each front door brings its header and its words.
 */
import { BASE_STYLESHEET_PATH } from "./assets.js";
import { faviconLink } from "./favicon.js";
import { type Html, html } from "./html.js";

export interface PageShell {
  /** The page's language tag. */
  lang: string;
  title: string;
  /** The front door's stylesheets, after the shared one: later ones override earlier ones. */
  stylesheets: readonly string[];
  script: string;
  skipLink: string;
  header: Html | null;
  body: Html;
}

export function pageShell(shell: PageShell): string {
  return html`<!doctype html>
<html lang="${shell.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${shell.title}</title>
${[BASE_STYLESHEET_PATH, ...shell.stylesheets].map((href) => html`<link rel="stylesheet" href="${href}">\n`)}${faviconLink}
<script src="${shell.script}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">${shell.skipLink}</a>
${shell.header}
<main id="main" tabindex="-1">
${shell.body}
</main>
</body>
</html>
`.text;
}
