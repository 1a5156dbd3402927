/**
 * The partner dashboard, on its own listener (DASHBOARD_PORT): accounts and team, API keys,
 * webhooks, the request log, the sandbox and who may frame the embedded interface, over the same
 * store as the API; and the developer portal at /docs/. Server-rendered HTML whose forms work
 * without scripts; a small script adds copy buttons and confirmations.
 *
 * Request ladder: security headers, static assets, the icon and the portal, the pages before sign-in, then
 * every other page needs a session (else the sign-in page), and every POST passes the CSRF checks.
 */
import { fileURLToPath } from "node:url";
import express, { type Express, type Request, type RequestHandler } from "express";
import { type AccountLimits, DEFAULT_PASSWORD_HASHING, type PasswordHashingLimits } from "../partners/accounts/account-limits.js";
import { Accounts } from "../partners/accounts/accounts.js";
import { DashboardSessions } from "../partners/accounts/dashboard-sessions.js";
import type { Mailer } from "../partners/accounts/mailer.js";
import { PasswordHashingQueue } from "../partners/accounts/password-hashing-queue.js";
import { servicesOf, type Services } from "../application/context.js";
import { serveAssets } from "../web/assets.js";
import { mountRoutes } from "../web/route-table.js";
import { frontDoorHeaders } from "../web/security-headers.js";
import { errorPages } from "../web/error-pages.js";
import { serveFavicon } from "../web/favicon.js";
import { CSRF_FIELD, csrfRefusal } from "../web/csrf.js";
import { readCookie, SESSION_COOKIE, FORM_COOKIE } from "./routes/cookies.js";
import { memberOf, type Dashboard, type MemberRequest } from "./routes/dashboard-context.js";
import { requireUtf8Form } from "../web/form-fields.js";
import { DEFAULT_PORTAL_FILES, registerDeveloperPortal, type PortalFiles } from "./portal.js";
import { logoUpload } from "./routes/embedding.js";
import { memberRoutes, PUBLIC_ROUTES } from "./routes/index.js";
import { notFoundPage, problemPage, refusedPage, unavailablePage } from "./views/layout.js";

const ASSETS = fileURLToPath(new URL("./assets/", import.meta.url));

/** Everything from this host, nothing inline, never framed. */
const securityHeaders = frontDoorHeaders({
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
  framed: false,
});

/** The origins a form may come from: this host as the browser addressed it. */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? ""}`;
}

function requireMember(dashboard: Dashboard): RequestHandler {
  return async (req, res, next) => {
    const signedIn = await dashboard.sessions.resume(readCookie(req.headers.cookie, SESSION_COOKIE.name));
    if (!signedIn) {
      // A page asked for while signed out comes back after sign-in; a form's POST does not.
      const back = req.method === "GET" ? `?next=${encodeURIComponent(req.originalUrl)}` : "";
      res.redirect(303, `/sign-in${back}`);
      return;
    }
    const { member, partner, session } = signedIn;
    // The partner's sandbox clock as every instance last moved it: the pages show times by it.
    await dashboard.services.clocks.refresh(partner.id);
    const context: MemberRequest = {
      dashboard,
      signedIn,
      member,
      partner,
      services: servicesOf(dashboard.services, partner.id),
      chrome: (current) => ({
        partnerName: partner.name,
        email: member.email,
        environment: dashboard.services.deployment.environment,
        current,
        csrfToken: session.csrfToken,
      }),
    };
    res.locals.member = context;
    next();
  };
}

/** Every POST: the Fetch Metadata and Origin checks, and the form token of the session or, before sign-in, of the form cookie. */
function verifyCsrf(dashboard: Dashboard, signedIn: boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const expected = signedIn ? memberOf(res).signedIn.session.csrfToken : readCookie(req.headers.cookie, FORM_COOKIE.name);
    const refusal =
      expected === undefined
        ? "no form cookie"
        : csrfRefusal({
            headers: req.headers,
            token: (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD],
            sessionToken: expected,
            ownOrigin: ownOrigin(req),
          });
    if (refusal === null) return next();
    dashboard.log(`dashboard: refused ${req.method}: ${refusal}`);
    res.status(403).type("html").send(refusedPage());
  };
}

export interface DashboardOptions {
  services: Services;
  /** The dashboard's own base URL, for the links of its e-mails. */
  baseUrl: string;
  apiBaseUrl: string;
  routes: readonly string[];
  mailer: Mailer;
  flushRequestLog?: () => Promise<void>;
  /** log2 of scrypt's N; tests lower it (server/partners/accounts/passwords.ts). */
  passwordCost?: number;
  /**
   * Express's `trust proxy` (PARTNER_API_TRUST_PROXY): which hops may say, in X-Forwarded-For and
   * X-Forwarded-Proto, who the client is and how it connected. None by default: the socket's address.
   */
  trustProxy?: false | number | string;
  /** The throttles' figures (server/partners/accounts/account-limits.ts); tests lower some. */
  accountLimits?: Partial<AccountLimits>;
  passwordHashing?: PasswordHashingLimits;
  log?: (message: string, error?: unknown) => void;
  portal?: PortalFiles;
}

export interface PartnerDashboard {
  app: Express;
  dashboard: Dashboard;
}

export function createDashboardApp(options: DashboardOptions): PartnerDashboard {
  const { services } = options;
  const passwordHashing = new PasswordHashingQueue(options.passwordHashing ?? DEFAULT_PASSWORD_HASHING);
  const dashboard: Dashboard = {
    services,
    // Getters: the stores are read at each use, as the API's are (tests point a deployment at fresh ones).
    accounts: new Accounts({
      get accounts() {
        return services.persistence.accounts;
      },
      get attempts() {
        return services.persistence.rateLimits;
      },
      clock: services.clock,
      mailer: options.mailer,
      baseUrl: options.baseUrl.replace(/\/$/, ""),
      hashing: passwordHashing,
      limits: options.accountLimits,
      passwordCost: options.passwordCost,
    }),
    passwordHashing,
    sessions: new DashboardSessions(() => services.persistence.accounts, services.clock),
    flushRequestLog: options.flushRequestLog ?? (async () => {}),
    routes: options.routes,
    apiBaseUrl: options.apiBaseUrl.replace(/\/$/, ""),
    signUpOpen: options.mailer.delivers,
    log: options.log ?? ((message, error) => console.error(message, error ?? "")),
  };
  const portal = options.portal ?? DEFAULT_PORTAL_FILES;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.enable("case sensitive routing");
  app.enable("strict routing");
  // The sign-in and sign-up throttles count by client: its address must be one a client cannot choose.
  app.set("trust proxy", options.trustProxy ?? false);
  app.locals.dashboard = dashboard;
  app.use((_req, res, next) => {
    res.locals.dashboard = dashboard;
    next();
  });
  app.use(securityHeaders);
  serveAssets(app, ASSETS);
  serveFavicon(app);
  registerDeveloperPortal(app, portal, dashboard, options.baseUrl);
  app.use(express.urlencoded({ extended: false, limit: "32kb", parameterLimit: 100, verify: requireUtf8Form }));
  mountRoutes(app, PUBLIC_ROUTES, [verifyCsrf(dashboard, false)]);
  app.use(requireMember(dashboard));
  // The one multipart form: its body (with its CSRF token) is read before the check reads the token.
  app.use("/embedding/logo", logoUpload());
  app.use(verifyCsrf(dashboard, true));
  mountRoutes(app, memberRoutes(dashboard.services.deployment.environment));
  app.use((_req, res) => {
    res.status(404).type("html").send(notFoundPage());
  });
  app.use(
    errorPages(
      { notFound: notFoundPage, refused: refusedPage, unavailable: unavailablePage, problem: problemPage },
      dashboard.log,
      "dashboard",
    ),
  );
  return { app, dashboard };
}
