/**
 * The one change made to the pages Redocly's `build-docs` writes. Redoc 3 ends its side menu with
 * "API docs by" and Redocly's logo, an image it loads from Redocly's CDN once the page runs, with
 * no option to keep it local (build-docs' documentation: "Only the Redocly logo in the sidebar
 * loads from the CDN"). The portal's Content-Security-Policy refuses it (a console error and a
 * broken image), and offline it fails. Its address in the page's inline script is replaced here
 * by an image of the wordmark inside the page: the credit and its link stay, nothing is fetched.
 *
 * Upstream: https://github.com/Redocly/redocly-cli/issues/1035 (build-docs' assets from the CDN).
 * Delete this module once a `build-docs` page loads nothing from a CDN by itself:
 * test/spec/html-docs.test.ts and test/e2e/reference-docs.test.ts say whether it does.
 */

/** The addresses Redoc 3 loads its logo from: the full wordmark and the collapsed menu's mark. */
export const REDOC_LOGO_ADDRESSES = ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"] as const;

const svgImage = (width: number, text: string) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="12.5" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#4f5a66">${text}</text></svg>`,
  )}`;

/** What each address becomes: encoded so that it holds no quote, backtick or backslash of the script it sits in. */
const REPLACEMENTS: Record<(typeof REDOC_LOGO_ADDRESSES)[number], string> = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": svgImage(58, "Redocly"),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": svgImage(10, "R"),
};

/** The page with the logo inside it. */
export function withLocalRedocLogo(page: string): string {
  let patched = page;
  for (const address of REDOC_LOGO_ADDRESSES) patched = patched.replaceAll(address, REPLACEMENTS[address]);
  return patched;
}
