/**
 * The icon of the HTML front doors (the embedded interface, the dashboard and portal, the demo
 * partner's page). Browsers ask each host for one: its pages link an SVG, and /favicon.ico, which
 * browsers fetch by themselves for whatever else they show (a JSON answer, an image), is answered
 * 204 rather than a 404 that would show as an error in every developer's console.
 */
import type { Express } from "express";
import { html } from "./html.js";

export const FAVICON_PATH = "/favicon.svg";

/** A "P" on the project's blue, legible at 16 pixels; small enough to live here rather than in an asset folder per host. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4e8c"/>' +
  '<path d="M11 25V7h6.5a5.5 5.5 0 0 1 0 11H11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linejoin="round"/></svg>';

/** The `<link>` every page's head carries. */
export const faviconLink = html`<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;

/** Serves the icon, and answers /favicon.ico without an error; before any route that needs a session. */
export function serveFavicon(app: Express): void {
  app.get(FAVICON_PATH, (_req, res) => {
    // The same on every host and for the life of a release: a day's caching saves a request per page.
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.type("image/svg+xml").send(FAVICON_SVG);
  });
  app.get("/favicon.ico", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.status(204).end();
  });
}
