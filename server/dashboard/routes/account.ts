/** Signing up, in and out, joining by invitation, and changing one's password. */
import type { Request, Response } from "express";
import { AccountProblem } from "../../partners/accounts/accounts.js";
import type { MemberRow } from "../../partners/accounts/account-store.js";
import { RetryLater } from "../../partners/accounts/retry-later.js";
import { secretOf, textOf, type FormBody } from "../../web/form-fields.js";
import { clearCookie, FORM_COOKIE, newFormToken, readCookie, SESSION_COOKIE, setCookie } from "./cookies.js";
import { dashboardOf, memberOf, type Dashboard } from "./dashboard-context.js";
import {
  accountPage,
  checkInboxPage,
  confirmSignUpPage,
  invitationPage,
  linkEndedPage,
  signInPage,
  signUpPage,
} from "../views/account-views.js";
import { type FormErrors, formErrors } from "../views/controls.js";
import type { RouteTable } from "../../web/route-table.js";

/** The form token of a browser before sign-in, made (and set as a cookie) on its first form. */
function formToken(req: Request, res: Response): string {
  const existing = readCookie(req.headers.cookie, FORM_COOKIE.name);
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const token = newFormToken();
  setCookie(res, FORM_COOKIE, token);
  return token;
}

/** Where to go after sign-in: a path of this host only, never another site (an open redirect). */
function safeNext(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) && !value.startsWith("/sign-") ? value : "/keys";
}

const body = (req: Request) => (req.body ?? {}) as FormBody;

/** The browser's address: the socket's, or the one a trusted proxy forwarded (`trust proxy`, PARTNER_API_TRUST_PROXY). */
const clientOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";

/** Answers 429 with `Retry-After` for a refusal a wait lifts; the message says how long. */
function refuseForNow(res: Response, refusal: RetryLater, attempts = "sign-in attempts"): string {
  res.status(429).setHeader("Retry-After", String(refusal.retryAfterSeconds));
  const seconds = refusal.retryAfterSeconds;
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : seconds === 1 ? "1 second" : `${seconds} seconds`;
  switch (refusal.reason) {
    case "sign_in":
      return `Too many ${attempts}. Try again in ${wait}.`;
    case "sign_up":
      return `Too many sign-ups. Try again in ${wait}.`;
    case "busy":
      return `The server is busy checking other passwords. Try again in ${wait}.`;
  }
}

async function signInAs(dashboard: Dashboard, req: Request, res: Response, member: MemberRow, next: string): Promise<void> {
  const { value, maxAgeSeconds } = await dashboard.sessions.start(member, readCookie(req.headers.cookie, SESSION_COOKIE.name));
  setCookie(res, SESSION_COOKIE, value, maxAgeSeconds);
  res.redirect(303, next);
}

const environmentOf = (res: Response) => dashboardOf(res).services.deployment.environment;

export function showSignIn(req: Request, res: Response) {
  const signedOut = req.query.signed_out === "1";
  res.type("html").send(
    signInPage({
      formToken: formToken(req, res),
      next: typeof req.query.next === "string" ? safeNext(req.query.next) : undefined,
      message: signedOut ? "You are signed out." : null,
      signUpOpen: dashboardOf(res).signUpOpen,
      environment: environmentOf(res),
    }),
  );
}

export async function signIn(req: Request, res: Response) {
  const dashboard = dashboardOf(res);
  const form = body(req);
  const email = textOf(form, "email");
  const password = secretOf(form, "password");
  const next = safeNext(form.next);
  let message: string;
  try {
    const member = await dashboard.accounts.signIn({ email, password }, clientOf(req));
    if (member) return signInAs(dashboard, req, res, member, next);
    res.status(401);
    message = "The e-mail address or the password is not right.";
  } catch (error) {
    if (!(error instanceof RetryLater)) throw error;
    message = refuseForNow(res, error);
  }
  res.type("html").send(
    signInPage({
      formToken: formToken(req, res),
      email,
      next: next === "/keys" ? undefined : next,
      errors: formErrors({}, [message]),
      signUpOpen: dashboard.signUpOpen,
      environment: environmentOf(res),
    }),
  );
}

export function showSignUp(req: Request, res: Response) {
  res.type("html").send(signUpPage({ formToken: formToken(req, res), open: dashboardOf(res).signUpOpen }));
}

export async function signUp(req: Request, res: Response) {
  const dashboard = dashboardOf(res);
  if (!dashboard.signUpOpen) {
    res
      .status(403)
      .type("html")
      .send(signUpPage({ formToken: formToken(req, res), open: false }));
    return;
  }
  const form = body(req);
  const values = { email: textOf(form, "email"), partner_name: textOf(form, "partner_name") };
  try {
    const { email } = await dashboard.accounts.requestSignUp(
      { email: values.email, partnerName: values.partner_name, password: secretOf(form, "password") },
      clientOf(req),
    );
    res
      .status(202)
      .type("html")
      .send(checkInboxPage(email, environmentOf(res)));
  } catch (error) {
    if (error instanceof RetryLater) {
      const message = refuseForNow(res, error);
      res.type("html").send(signUpPage({ formToken: formToken(req, res), values, errors: formErrors({}, [message]), open: true }));
      return;
    }
    if (!(error instanceof AccountProblem)) throw error;
    res
      .status(422)
      .type("html")
      .send(signUpPage({ formToken: formToken(req, res), values, errors: formErrors(error.fields), open: true }));
  }
}

// A GET never uses a link up: mail scanners and previews open links; the button's POST does.
export function showSignUpConfirmation(req: Request, res: Response) {
  res.type("html").send(confirmSignUpPage(formToken(req, res), String(req.params.token)));
}

export async function confirmSignUp(req: Request, res: Response) {
  const dashboard = dashboardOf(res);
  const member = await dashboard.accounts.confirmSignUp(String(req.params.token));
  if (!member) {
    res.status(410).type("html").send(linkEndedPage());
    return;
  }
  await signInAs(dashboard, req, res, member, "/keys?welcome=1");
}

export async function showInvitation(req: Request, res: Response) {
  const dashboard = dashboardOf(res);
  const token = String(req.params.token);
  const invitation = await dashboard.accounts.openInvitation(token);
  if (!invitation) {
    res.status(410).type("html").send(linkEndedPage());
    return;
  }
  const partner = await dashboard.services.persistence.accounts.findPartner(invitation.partnerId);
  res.type("html").send(invitationPage({ formToken: formToken(req, res), token, invitation, partner, newcomers: dashboard.signUpOpen }));
}

export async function acceptInvitation(req: Request, res: Response) {
  const dashboard = dashboardOf(res);
  const token = String(req.params.token);
  let errors: FormErrors;
  try {
    const outcome = await dashboard.accounts.acceptInvitation(token, secretOf(body(req), "password"), clientOf(req));
    if (outcome === "expired") {
      res.status(410).type("html").send(linkEndedPage());
      return;
    }
    if (typeof outcome === "object") return signInAs(dashboard, req, res, outcome, "/keys?welcome=1");
    res.status(outcome === "wrong_password" ? 401 : 409);
    errors = formErrors({}, [
      outcome === "wrong_password"
        ? "The password is not right."
        : "You are the only owner of the partner account you are in now: make someone else its owner, then open this link again.",
    ]);
  } catch (error) {
    if (error instanceof RetryLater) errors = formErrors({}, [refuseForNow(res, error)]);
    else if (error instanceof AccountProblem) {
      res.status(422);
      errors = formErrors(error.fields);
    } else throw error;
  }
  const invitation = await dashboard.accounts.openInvitation(token);
  if (!invitation) {
    res.status(410).type("html").send(linkEndedPage());
    return;
  }
  const partner = await dashboard.services.persistence.accounts.findPartner(invitation.partnerId);
  res
    .type("html")
    .send(invitationPage({ formToken: formToken(req, res), token, invitation, partner, errors, newcomers: dashboard.signUpOpen }));
}

export const PUBLIC_ACCOUNT_ROUTES: RouteTable = {
  "/sign-in": { get: showSignIn, post: signIn },
  "/sign-up": { get: showSignUp, post: signUp },
  "/sign-up/confirm/:token": { get: showSignUpConfirmation, post: confirmSignUp },
  "/invitations/:token": { get: showInvitation, post: acceptInvitation },
};

export async function signOut(req: Request, res: Response) {
  const { dashboard } = memberOf(res);
  const value = readCookie(req.headers.cookie, SESSION_COOKIE.name);
  if (value) await dashboard.sessions.end(value);
  clearCookie(res, SESSION_COOKIE);
  res.redirect(303, "/sign-in?signed_out=1");
}

export function showAccount(req: Request, res: Response) {
  const { chrome, member, partner } = memberOf(res);
  const message = req.query.changed === "1" ? "Your password is changed." : null;
  res.type("html").send(accountPage({ chrome: chrome("account"), member, partner, message }));
}

export async function changePassword(req: Request, res: Response) {
  const { dashboard, chrome, member, partner, signedIn } = memberOf(res);
  const form = body(req);
  try {
    await dashboard.accounts.changePassword(
      member,
      secretOf(form, "current_password"),
      secretOf(form, "new_password"),
      signedIn.session.idHash,
      clientOf(req),
    );
    res.redirect(303, "/account?changed=1");
  } catch (error) {
    if (error instanceof RetryLater) {
      const message = refuseForNow(res, error, "attempts at your current password");
      res.type("html").send(accountPage({ chrome: chrome("account"), member, partner, errors: formErrors({}, [message]) }));
      return;
    }
    if (!(error instanceof AccountProblem)) throw error;
    res
      .status(422)
      .type("html")
      .send(accountPage({ chrome: chrome("account"), member, partner, errors: formErrors(error.fields) }));
  }
}

export const ACCOUNT_ROUTES: RouteTable = {
  "/sign-out": { post: signOut },
  "/account": { get: showAccount },
  "/account/password": { post: changePassword },
};
