/** The dashboard's page shell: navigation of a signed-in member, and the pages shown without a session. */
import type { Environment } from "../../../generated/deployment.js";
import { html, type Html } from "../../web/html.js";
import { pageShell } from "../../web/page-shell.js";

export type Section = "keys" | "webhooks" | "logs" | "sandbox" | "embedding" | "connection" | "team" | "account";

export interface Chrome {
  partnerName: string;
  email: string;
  environment: Environment;
  current: Section | null;
  csrfToken: string;
}

const SECTIONS: ReadonlyArray<{ id: Section; href: string; label: string; sandboxOnly?: true }> = [
  { id: "keys", href: "/keys", label: "API keys" },
  { id: "webhooks", href: "/webhooks", label: "Webhooks" },
  { id: "logs", href: "/logs", label: "Request log" },
  { id: "sandbox", href: "/sandbox", label: "Sandbox", sandboxOnly: true },
  { id: "embedding", href: "/embedding", label: "Embedding" },
  { id: "connection", href: "/connection", label: "Connection" },
  { id: "team", href: "/team", label: "Team" },
  { id: "account", href: "/account", label: "Account" },
];

const ENVIRONMENT_LABEL: Record<Environment, string> = { sandbox: "Sandbox", production: "Production" };

function header(chrome: Chrome): Html {
  const links = SECTIONS.filter((section) => !section.sandboxOnly || chrome.environment === "sandbox").map(
    (section) =>
      html`<li><a href="${section.href}"${section.id === chrome.current && html` aria-current="page"`}>${section.label}</a></li>`,
  );
  return html`<header class="top">
<div class="brand"><a href="/keys" class="brand-name">${chrome.partnerName}</a> <span class="environment environment-${chrome.environment}">${ENVIRONMENT_LABEL[chrome.environment]}</span></div>
<nav aria-label="Dashboard"><ul>${links}<li><a href="/docs/">Docs</a></li></ul></nav>
<form method="post" action="/sign-out" class="sign-out"><input type="hidden" name="_csrf" value="${chrome.csrfToken}"><span class="who">${chrome.email}</span> <button type="submit" class="link-button">Sign out</button></form>
</header>`;
}

export function page(title: string, body: Html, chrome?: Chrome): string {
  return pageShell({
    lang: "en",
    title: `${title} · Partner dashboard`,
    stylesheets: ["/assets/dashboard.css"],
    script: "/assets/dashboard.js",
    skipLink: "Skip to content",
    header: chrome
      ? header(chrome)
      : html`<header class="top top-public"><div class="brand"><a href="/" class="brand-name">Partner dashboard</a></div><nav aria-label="Public"><ul><li><a href="/docs/">Docs</a></li></ul></nav></header>`,
    body,
  });
}

/** After a redirect: what was done, announced politely; the script moves focus here. */
export const notice = (text: string | null | undefined) => text && html`<p class="notice" role="status" tabindex="-1">${text}</p>`;

export const notFoundPage = () => page("Not found", html`<h1>Page not found</h1><p><a href="/">Go to the dashboard</a></p>`);

export const refusedPage = () =>
  page(
    "Form expired",
    html`<h1>This form could not be sent</h1><p>Reload the page and try again.</p><p><a href="/">Go to the dashboard</a></p>`,
  );

export const problemPage = () => page("Something went wrong", html`<h1>Something went wrong</h1><p>Try again in a moment.</p>`);

export const unavailablePage = () =>
  page("Briefly unavailable", html`<h1>Briefly unavailable</h1><p>The service is restarting. Reload this page in a few seconds.</p>`);

export const forbiddenPage = (chrome: Chrome) =>
  page("Owners only", html`<h1>Owners only</h1><p>Only an owner of this account can do that. Ask one of them.</p>`, chrome);
