/**
 * The demo partner's application, for `npm start` and the browser tests: a page on another origin
 * that frames the embedded interface. As a real partner would, its server holds the API key, asks
 * POST /api/v1/users for a fresh login_url on every page view and puts only that URL in the page.
 */
import express, { type Express } from "express";
import { faviconLink, serveFavicon } from "../web/favicon.js";
import { html } from "../web/html.js";

export interface DemoHostOptions {
  /** Where the partner API listens, e.g. http://127.0.0.1:3000. */
  apiBaseUrl: string;
  apiKey: string;
  userIdentifier: string;
  email?: string;
}

/** The demo page's origin: always loopback, so it is another site than the embed host's `localhost`. */
export const demoHostOrigin = (port: number) => `http://127.0.0.1:${port}`;

/** A fresh login_url for the user, as a partner's server asks for it. */
export async function requestLoginUrl(options: DemoHostOptions): Promise<string> {
  const response = await fetch(`${options.apiBaseUrl}/api/v1/users`, {
    method: "POST",
    headers: { Authorization: `Bearer ${options.apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ user_identifier: options.userIdentifier, ...(options.email ? { email: options.email } : {}) }),
  });
  if (response.status !== 201) throw new Error(`POST /api/v1/users answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { login_url: string }).login_url;
}

/** Frame widths the page offers: a phone and a desktop panel. */
const WIDTHS = { narrow: 360, wide: 960 } as const;

export function createDemoHostApp(options: DemoHostOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.enable("case sensitive routing");
  app.enable("strict routing");
  serveFavicon(app);
  app.get("/", async (req, res, next) => {
    try {
      const loginUrl = await requestLoginUrl(options);
      const width = req.query.width === "narrow" ? WIDTHS.narrow : WIDTHS.wide;
      res.setHeader("Cache-Control", "no-store");
      res.type("html").send(
        html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme Hosting (demo partner)</title>${faviconLink}</head>
<body style="font-family: system-ui, sans-serif; margin: 1rem; background: #eef1f5">
<h1 style="font-size: 1.25rem">Acme Hosting: your account</h1>
<p>This page stands for a partner's application. Its server holds the API key, asked the API for a login_url for
<strong>${options.userIdentifier}</strong> and frames it below; the browser never sees the key.
Frame width: <a href="/?width=narrow">360 px</a> · <a href="/">${WIDTHS.wide} px</a></p>
<iframe title="Domains" src="${loginUrl}" style="width: ${width}px; max-width: 100%; height: 900px; border: 1px solid #99a; background: #fff"></iframe>
</body>
</html>
`.text,
      );
    } catch (error) {
      next(error);
    }
  });
  return app;
}

export const DEMO_USER = "demo_user";

/** The start-up banner's lines on a ready login_url of the demo user and the demo page that frames it, or why there is none (`npm start`). */
export async function demoLines(options: DemoHostOptions, demoPageUrl: string | null): Promise<string[]> {
  const loginUrl = await requestLoginUrl(options);
  return [
    `Embedded interface of the demo user ${options.userIdentifier}:`,
    `  login_url (opens for 24 hours): ${loginUrl}`,
    demoPageUrl
      ? `  the demo partner's page framing it (a fresh login_url on every load): ${demoPageUrl}`
      : "  no demo partner's page framing it: this process serves none (DEMO_HOST_PORT=0)",
  ];
}
