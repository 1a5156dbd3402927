/** Every page checked as people meet it: axe-core's WCAG 2.1 A and AA rules, and a screenshot, at a desktop and a phone width. */
import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { screenshot } from "./browser.js";

export const WIDTHS = [1280, 375] as const;
const WCAG_21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The violations axe finds on the page as it is, by rule and the elements concerned. A page without
 * frames runs axe-core itself, put into the document once: AxeBuilder injects the engine again on
 * every call and finishes each run in a fresh blank page, several times the cost of the run (measured
 * in the browser suite, where axe took most of the time). A page with frames goes through AxeBuilder,
 * which reaches into each frame.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if (page.frames().length > 1) {
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_A_AA).analyze();
    return violations.map(describeViolation);
  }
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }),
    WCAG_21_A_AA,
  );
  return violations.violations.map(describeViolation);
}

const describeViolation = (violation: axe.Result) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`;

/** At each width: no WCAG 2.1 A or AA violation, no horizontal scrolling of the page, and a screenshot named `<prefix>-<name>-<width>`. */
export async function checkPage(page: Page, name: string, prefix = "dashboard"): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect([name, width, await accessibilityViolations(page)]).toEqual([name, width, []]);
    // Wide content (tables) scrolls in its own region; the page itself never scrolls sideways.
    const overflowing = await page.evaluate(() =>
      document.documentElement.scrollWidth <= window.innerWidth
        ? []
        : [...document.querySelectorAll("body *")]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 5)
            .map(
              (element) => `${element.tagName.toLowerCase()}.${element.className}: ${Math.round(element.getBoundingClientRect().right)}px`,
            ),
    );
    expect([name, width, overflowing]).toEqual([name, width, []]);
    await screenshot(page, `${prefix}-${name}-${width}`);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
}
