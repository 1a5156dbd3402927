/**
 * The embed host that login_url opens, inside the partner's iframe: the user's domains, search and
 * purchase, DNS records. Server-rendered HTML whose forms work without scripts; a small script only
 * improves them. No API key is involved: the browser holds a session cookie, nothing else.
 *
 * Request ladder: security headers, static assets and the icon, the token exchange, then every other page needs an
 * open session (else the session-ended page), and every POST passes the CSRF checks.
 */
import { fileURLToPath } from "node:url";
import express, { type Express, type Request, type RequestHandler } from "express";
import { servicesOf, type Services } from "../application/context.js";
import { apiErrors } from "../platform/errors.js";
import { serveAssets } from "../web/assets.js";
import { mountRoutes } from "../web/route-table.js";
import { SESSION_ROUTES } from "./routes/index.js";
import { frameAncestors } from "../partners/framing/framing.js";
import { frontDoorHeaders, policyOf } from "../web/security-headers.js";
import { errorPages } from "../web/error-pages.js";
import { serveFavicon } from "../web/favicon.js";
import { textProblem } from "../platform/plain-text.js";
import { clearCookie, readCookie, SESSION_COOKIE, setCookie } from "./cookies.js";
import { CSRF_FIELD, csrfRefusal } from "../web/csrf.js";
import { embedContextOf, type EmbedContext } from "./routes/embed-context.js";
import { requireUtf8Form } from "./routes/forms.js";
import { zoneFileUpload } from "./routes/zone-upload.js";
import { notFoundPage, problemPage, refusedPage, sessionEndedPage, unavailablePage } from "./views/layout.js";
import { chooseLocale } from "../platform/locale.js";
import { localizerFor, type Localizer } from "./i18n/localizer.js";
import { openSession, resumeEmbedSession, startEmbedSession } from "../domain/sessions/user-sessions.js";
import { inTransaction } from "../application/transactions.js";

export interface EmbedAppOptions {
  log?: (message: string, error?: unknown) => void;
}

const ASSETS = fileURLToPath(new URL("./assets/", import.meta.url));

/** Everything comes from this host; scripts and styles from files, never inline. */
const BASE_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  formAction: ["'self'"],
  baseUri: ["'none'"],
};

/** Helmet's policy of the fixed directives, read once: a page's framing is the only part that varies. */
const BASE_POLICY = policyOf(BASE_DIRECTIVES);

/**
 * The policy of a page: framed by the partner's origins, by no one when the page belongs to no
 * partner. Joined as helmet joins directives, without running helmet on every page.
 */
const policyFor = (origins: readonly string[]) => `${BASE_POLICY};${frameAncestors(origins)}`;

const securityHeaders = frontDoorHeaders({ directives: { ...BASE_DIRECTIVES, frameAncestors: ["'none'"] }, framed: true });

/**
 * The origins of one partner. An answer that belongs to no partner the request shows (an unknown
 * token or cookie, none at all) may be framed by no one: every partner's origins would tell anyone
 * who the partners are, for a page that says only that nothing is open.
 */
async function originsOf(services: Services, partnerId: string | null): Promise<readonly string[]> {
  if (partnerId === null) return [];
  const configured = services.deployment.embedOrigins.get(partnerId) ?? [];
  // Set in the dashboard, per environment: read at each page, so a change counts on every instance at once.
  const stored = await services.persistence.framingOrigins.originsOf(partnerId, services.deployment.environment);
  return stored.length === 0 ? configured : [...new Set([...configured, ...stored])];
}

const ownOriginOf = (services: Services) => new URL(services.deployment.embedBaseUrl).origin;

/** The language of a page shown without a session: the browser's. */
const browserLocalizer = (req: Request): Localizer => localizerFor(chooseLocale(null, req.headers["accept-language"]));

/** The partner's name, for its logo's text: the dashboard account's, else its id. */
async function partnerNameOf(services: Services, partnerId: string): Promise<string> {
  return (await services.persistence.accounts.findPartner(partnerId))?.name ?? partnerId;
}

/** GET login_url: the token becomes a session cookie, and the browser moves to an address without the token. */
function exchangeToken(services: Services): RequestHandler {
  return async (req, res) => {
    const lookup = await openSession(services, String(req.params.token));
    if (lookup.state !== "open") {
      if (lookup.state === "expired") res.setHeader("Content-Security-Policy", policyFor(await originsOf(services, lookup.partnerId)));
      res
        .status(lookup.state === "expired" ? 410 : 404)
        .type("html")
        .send(sessionEndedPage(browserLocalizer(req)));
      return;
    }
    const { session } = lookup;
    const remainingSeconds = (session.expiresAt.getTime() - services.clocks.clockFor(session.partnerId).now().getTime()) / 1000;
    res.setHeader("Content-Security-Policy", policyFor(await originsOf(services, session.partnerId)));
    const id = await inTransaction(servicesOf(services, session.partnerId), (tx) => startEmbedSession(tx, session));
    setCookie(res, SESSION_COOKIE, id, remainingSeconds);
    res.redirect(303, "/domains");
  };
}

function requireSession(services: Services): RequestHandler {
  return async (req, res, next) => {
    const lookup = await resumeEmbedSession(services, readCookie(req.headers.cookie, SESSION_COOKIE.name));
    if (lookup.state !== "open") {
      if (lookup.state === "expired") {
        res.setHeader("Content-Security-Policy", policyFor(await originsOf(services, lookup.partnerId)));
        clearCookie(res, SESSION_COOKIE);
      }
      res
        .status(lookup.state === "expired" ? 410 : 401)
        .type("html")
        .send(sessionEndedPage(browserLocalizer(req)));
      return;
    }
    const { session } = lookup;
    const partnerServices = servicesOf(services, session.partnerId);
    // The look is read on every page, as the framing origins are: a look set in the dashboard shows on every instance at once.
    const [user, branding] = await Promise.all([
      partnerServices.store.findUser(session.partnerId, session.userIdentifier),
      services.persistence.branding.brandingOf(session.partnerId, services.deployment.environment),
    ]);
    const context: EmbedContext = {
      services: partnerServices,
      session,
      user: user!,
      l: localizerFor(chooseLocale(lookup.locale, req.headers["accept-language"])),
      partnerName: branding.logo ? await partnerNameOf(services, session.partnerId) : session.partnerId,
      branding,
    };
    res.locals.embed = context;
    res.setHeader("Content-Security-Policy", policyFor(await originsOf(services, session.partnerId)));
    next();
  };
}

function verifyCsrf(services: Services, log: NonNullable<EmbedAppOptions["log"]>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const refusal = csrfRefusal({
      headers: req.headers,
      token: (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD],
      sessionToken: embedContextOf(res).session.csrfToken,
      ownOrigin: ownOriginOf(services),
    });
    if (refusal === null) return next();
    // Not the path: like every log line, it never carries a raw path (server/web/error-pages.ts).
    log(`embed: refused ${req.method}: ${refusal}`);
    res
      .status(403)
      .type("html")
      .send(refusedPage(embedContextOf(res).l));
  };
}

export function createEmbedApp(services: Services, options: EmbedAppOptions = {}): Express {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const app = express();
  app.disable("x-powered-by");
  // Exact paths, as the API's (server/api/http/operation-match.ts): one spelling per page.
  app.enable("case sensitive routing");
  app.enable("strict routing");
  app.use(securityHeaders);
  serveAssets(app, ASSETS);
  serveFavicon(app);
  app.get("/session/:token", exchangeToken(services));
  app.use(express.urlencoded({ extended: false, limit: "32kb", parameterLimit: 50, verify: requireUtf8Form }));
  app.use(requireSession(services));
  // The zone file forms are multipart (a file can be chosen): their body, with its CSRF token, is read before the check.
  app.use(["/domains/:domainId/zone/preview", "/domains/:domainId/zone/apply"], zoneFileUpload());
  app.use(verifyCsrf(services, log));
  // An id holding a control character names nothing, as an unknown id: nothing stored holds one (server/platform/plain-text.ts).
  for (const name of ["domainId", "recordId"])
    app.param(name, (_req, _res, next, value) => next(textProblem(String(value)) ? apiErrors.notFound("Page", String(name)) : undefined));
  mountRoutes(app, SESSION_ROUTES);
  app.use((_req, res) => {
    res
      .status(404)
      .type("html")
      .send(notFoundPage(embedContextOf(res).l));
  });
  // Errors may come before the session is known (a form that is not UTF-8): the session's language when it is, else the browser's.
  const pageOf = (render: (l: Localizer) => string) => (req: Request) =>
    render((req.res?.locals.embed as EmbedContext | undefined)?.l ?? browserLocalizer(req));
  app.use(
    errorPages(
      { notFound: pageOf(notFoundPage), refused: pageOf(refusedPage), unavailable: pageOf(unavailablePage), problem: pageOf(problemPage) },
      log,
      "embed",
    ),
  );
  return app;
}
