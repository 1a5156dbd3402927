/** The page shell of the embedded interface, and the pages shown without a session. */
import type { Environment } from "../../../generated/deployment.js";
import { html, type Html } from "../../web/html.js";
import { pageShell } from "../../web/page-shell.js";
import type { Localizer } from "../i18n/localizer.js";

/** The partner's look, when it set one (server/partners/branding/): the stylesheet and logo addresses carry their versions. */
export interface ChromeBranding {
  partnerName: string;
  styleVersion: string | null;
  logoVersion: string | null;
}

export interface Chrome {
  l: Localizer;
  userIdentifier: string;
  environment: Environment;
  current: "domains" | "search" | null;
  branding: ChromeBranding;
}

function navLink(href: string, label: string, current: boolean): Html {
  return html`<a href="${href}"${current && html` aria-current="page"`}>${label}</a>`;
}

/** A page; `chrome` is its signed-in frame (navigation, user, partner's look), absent on the pages shown without a session. */
export function page(l: Localizer, title: string, body: Html, chrome?: Chrome): string {
  const { t } = l;
  const branding = chrome?.branding;
  const header = chrome
    ? html`<header class="top">
${branding?.logoVersion && html`<img class="partner-logo" src="/branding/logo?v=${branding.logoVersion}" alt="${t.layout.logoAlt(branding.partnerName)}">`}
<nav aria-label="${t.layout.mainNavigation}">${navLink("/domains", t.layout.yourDomains, chrome.current === "domains")}${navLink("/search", t.layout.findDomain, chrome.current === "search")}</nav>
<p class="who">${t.layout.signedInAs} <strong>${chrome.userIdentifier}</strong></p>
</header>
${chrome.environment === "sandbox" && html`<p class="sandbox-banner">${t.layout.sandboxBanner}</p>`}`
    : null;
  return pageShell({
    lang: l.locale.tag,
    title,
    stylesheets: ["/assets/embed.css", ...(branding?.styleVersion ? [`/branding/style.css?v=${branding.styleVersion}`] : [])],
    script: "/assets/embed.js",
    skipLink: t.layout.skipLink,
    header,
    body,
  });
}

/** After a redirect: what was done, announced politely; scripts move focus here. */
export const notice = (content: Html | string | null) => content && html`<div class="notice" role="status" tabindex="-1">${content}</div>`;

/** Unknown or forged token, expired session, deleted user: the same page, so it tells nothing about which. */
export const sessionEndedPage = (l: Localizer) =>
  page(
    l,
    l.t.pages.sessionEndedTitle,
    html`<h1>${l.t.pages.sessionEnded}</h1>
<p>${l.t.pages.sessionEndedBody}</p>`,
  );

export const notFoundPage = (l: Localizer) =>
  page(l, l.t.pages.notFoundTitle, html`<h1>${l.t.pages.notFound}</h1><p><a href="/domains">${l.t.pages.goToDomains}</a></p>`);

export const refusedPage = (l: Localizer) =>
  page(l, l.t.pages.refusedTitle, html`<h1>${l.t.pages.refused}</h1><p>${l.t.pages.refusedBody}</p>`);

export const problemPage = (l: Localizer) =>
  page(l, l.t.pages.problemTitle, html`<h1>${l.t.pages.problemTitle}</h1><p>${l.t.pages.problemBody}</p>`);

/** The database is out of reach for a moment (a restart, a failover): nothing was lost, and a reload soon works. */
export const unavailablePage = (l: Localizer) =>
  page(l, l.t.pages.unavailableTitle, html`<h1>${l.t.pages.unavailableTitle}</h1><p>${l.t.pages.unavailableBody}</p>`);
