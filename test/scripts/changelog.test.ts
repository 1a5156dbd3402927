/** CHANGELOG.md as the developer portal shows it (generated/changelog.html). */
import { describe, expect, it } from "vitest";
import { renderChangelogHtml } from "../../scripts/lib/changelog.js";

describe("the rendered changelog", () => {
  const rendered = renderChangelogHtml(
    "# Changelog\n\nIntro.\n\n## 1.1.0\n\n### Added\n\n- `a` <script>alert(1)</script>\n\n## 1.0.0\n\n### Added\n\n- b\n",
  );

  it("leaves out the document's title: the page has its own", () => {
    expect(rendered).not.toContain("<h1");
  });

  it("gives each heading an id unique in the page, a release's sections prefixed with the release", () => {
    const ids = [...rendered.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(["1-1-0", "1-1-0-added", "1-0-0", "1-0-0-added"]);
  });

  it("escapes markup written in it", () => {
    expect(rendered).not.toContain("<script>");
    expect(rendered).toContain("&lt;script&gt;");
  });
});
