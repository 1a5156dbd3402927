/** The page shell of the embedded interface, and the pages shown without a session. */
import type { Environment } from "../../../generated/deployment.js";
import { html, type Html } from "../../web/html.js";

export interface Chrome {
  userIdentifier: string;
  environment: Environment;
  current: "domains" | "search" | null;
}

function navLink(href: string, label: string, current: boolean): Html {
  return html`<a href="${href}"${current && html` aria-current="page"`}>${label}</a>`;
}

export function page(title: string, body: Html, chrome?: Chrome): string {
  const header = chrome
    ? html`<header class="top">
<nav aria-label="Main">${navLink("/domains", "Your domains", chrome.current === "domains")}${navLink("/search", "Find a domain", chrome.current === "search")}</nav>
<p class="who">Signed in as <strong>${chrome.userIdentifier}</strong></p>
</header>
${chrome.environment === "sandbox" && html`<p class="sandbox-banner">Sandbox: purchases and renewals are simulated; no payment is taken.</p>`}`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/assets/embed.css">
<script src="/assets/embed.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${header}
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`.text;
}

/** After a redirect: what was done, announced politely; scripts move focus here. */
export const notice = (text: string | null) => text && html`<p class="notice" role="status" tabindex="-1">${text}</p>`;

/** Unknown or forged token, expired session, deleted user: the same page, so it tells nothing about which. */
export const sessionEndedPage = () =>
  page(
    "Session expired",
    html`<h1>This session has expired</h1>
<p>For your security, this page stays open for a limited time. Reopen it from the application you came from.</p>`,
  );

export const notFoundPage = () => page("Not found", html`<h1>Page not found</h1><p><a href="/domains">Go to your domains</a></p>`);

export const refusedPage = () =>
  page(
    "Form expired",
    html`<h1>This form could not be sent</h1><p>Reload the page and try again. If it happens again, reopen this page from the application.</p>`,
  );

export const problemPage = () => page("Something went wrong", html`<h1>Something went wrong</h1><p>Try again in a moment.</p>`);

/** The database is out of reach for a moment (a restart, a failover): nothing was lost, and a reload soon works. */
export const unavailablePage = () =>
  page(
    "Briefly unavailable",
    html`<h1>Briefly unavailable</h1><p>The service is restarting. Reload this page in a few seconds; nothing you did is lost.</p>`,
  );
