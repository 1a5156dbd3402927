/** The browser suite's accessibility check finds what it must: a test that cannot fail would pass every page. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { accessibilityViolations } from "./support/accessibility.js";
import { launchChromium } from "./support/browser.js";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
});

afterAll(() => browser?.close());

const FLAWED = `<!doctype html><html lang="en"><head><title>Flawed</title></head><body><main>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <input type="text">
  <p style="color:#bbb;background:#fff">Faint text</p></main></body></html>`;

it("names each violation of a page: an image without text, a field without a label, faint text", async () => {
  await page.setContent(FLAWED);
  const found = (await accessibilityViolations(page)).map((violation) => violation.split(":")[0]);
  expect(found).toEqual(expect.arrayContaining(["image-alt", "label", "color-contrast"]));
});

it("checks the page as it is now, on a second look at one document and on the next document", async () => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Fine</title></head><body><main><p>Fine</p></main></body></html>`);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.evaluate(() => document.querySelector("main")!.insertAdjacentHTML("beforeend", '<input type="text">'));
  expect((await accessibilityViolations(page)).map((violation) => violation.split(":")[0])).toEqual(["label"]);
  await page.setContent(FLAWED);
  expect(await accessibilityViolations(page)).toContainEqual(expect.stringMatching(/^image-alt:/));
});
