/** Pages of signing up, in and out, invitations and the member's own account. */
import type { Environment } from "../../../generated/deployment.js";
import type { InvitationRow, MemberRow, PartnerAccountRow } from "../../partners/accounts/account-store.js";
import { MIN_PASSWORD_LENGTH } from "../../partners/accounts/passwords.js";
import { html } from "../../web/html.js";
import { csrfInput, errorSummary, input, NO_ERRORS, type FormErrors } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one.`;

export function signInPage(options: {
  formToken: string;
  email?: string;
  next?: string;
  errors?: FormErrors;
  message?: string | null;
  signUpOpen: boolean;
  environment: Environment;
}): string {
  const errors = options.errors ?? NO_ERRORS;
  return page(
    "Sign in",
    html`<h1>Sign in to the partner dashboard</h1>
${notice(options.message)}
${errorSummary(errors)}
<form method="post" action="/sign-in" class="card narrow" novalidate>
${csrfInput(options.formToken)}
${options.next && html`<input type="hidden" name="next" value="${options.next}">`}
${input({ id: "email", name: "email", label: "E-mail address", type: "email", autocomplete: "username", value: options.email, error: errors.fields.email, required: true })}
${input({ id: "password", name: "password", label: "Password", type: "password", autocomplete: "current-password", error: errors.fields.password, required: true })}
<button type="submit" class="button button-primary">Sign in</button>
</form>
${options.signUpOpen ? html`<p>New here? <a href="/sign-up">Create a partner account</a>.</p>` : html`<p>To join a partner account, ask one of its owners for an invitation.</p>`}`,
  );
}

export function signUpPage(options: {
  formToken: string;
  values?: { email?: string; partner_name?: string };
  errors?: FormErrors;
  open: boolean;
}): string {
  const errors = options.errors ?? NO_ERRORS;
  if (!options.open)
    return page(
      "Sign up",
      html`<h1>Sign-up is not available here</h1><p>This deployment sends no e-mail, which confirming an address needs. An owner of a partner account can invite you instead.</p><p><a href="/sign-in">Sign in</a></p>`,
    );
  return page(
    "Create a partner account",
    html`<h1>Create a partner account</h1>
<p>We send a link to your address to confirm it. Your company's API keys, webhooks and request log live in this account; invite your team once you are in.</p>
${errorSummary(errors)}
<form method="post" action="/sign-up" class="card narrow" novalidate>
${csrfInput(options.formToken)}
${input({ id: "partner_name", name: "partner_name", label: "Company name", value: options.values?.partner_name, error: errors.fields.partner_name, autocomplete: "organization", required: true })}
${input({ id: "email", name: "email", label: "Work e-mail address", type: "email", autocomplete: "email", value: options.values?.email, error: errors.fields.email, required: true })}
${input({ id: "password", name: "password", label: "Password", type: "password", autocomplete: "new-password", hint: PASSWORD_HINT, error: errors.fields.password, required: true })}
<button type="submit" class="button button-primary">Create account</button>
</form>
<p>Already have an account? <a href="/sign-in">Sign in</a>.</p>`,
  );
}

export const checkInboxPage = (email: string, environment: Environment) =>
  page(
    "Check your e-mail",
    html`<h1>Check your e-mail</h1>
<p>We sent a link to <strong>${email}</strong>. Open it within 24 hours to finish creating your account.</p>
${environment === "sandbox" && html`<p class="hint">Sandbox: no e-mail leaves this server. The message, link included, is in the server's log.</p>`}
<p><a href="/sign-in">Back to sign-in</a></p>`,
  );

export const confirmSignUpPage = (formToken: string, token: string) =>
  page(
    "Confirm your account",
    html`<h1>Confirm your account</h1><p>One step left: create the account and sign in.</p>
<form method="post" action="/sign-up/confirm/${token}">${csrfInput(formToken)}<button type="submit" class="button button-primary">Create my account</button></form>`,
  );

export const linkEndedPage = () =>
  page(
    "Link no longer valid",
    html`<h1>This link is no longer valid</h1><p>Links work once and for a limited time. Ask for a new one, or sign in if you already have an account.</p><p><a href="/sign-in">Sign in</a></p>`,
  );

/**
 * The same page whatever exists at the address. `newcomers`: the link was mailed to the address, so
 * following it proves the address and a new password makes a member; otherwise only an existing
 * account of the address may join.
 */
export function invitationPage(options: {
  formToken: string;
  token: string;
  invitation: InvitationRow;
  partner: PartnerAccountRow | undefined;
  errors?: FormErrors;
  newcomers: boolean;
}): string {
  const errors = options.errors ?? NO_ERRORS;
  const partnerName = options.partner?.name ?? "a partner account";
  return page(
    "Join a partner account",
    html`<h1>Join ${partnerName}</h1>
<p>${options.invitation.invitedBy} invited <strong>${options.invitation.email}</strong> to join as ${options.invitation.role}.</p>
${
  options.newcomers
    ? html`<p>Choose a password to finish. If this address already has a dashboard account, enter its password instead: the account leaves the partner account it is in and joins ${partnerName}, as an address belongs to one partner account.</p>`
    : html`<p>Enter the password of this address's dashboard account: it leaves the partner account it is in and joins ${partnerName}. This deployment sends no e-mail, which a new address needs to be proved; an address without an account joins once e-mail is set up.</p>`
}
${errorSummary(errors)}
<form method="post" action="/invitations/${options.token}" class="card narrow" novalidate>
${csrfInput(options.formToken)}
<input type="text" name="username" value="${options.invitation.email}" autocomplete="username" hidden>
${input({ id: "password", name: "password", label: "Password", type: "password", autocomplete: options.newcomers ? "new-password" : "current-password", hint: options.newcomers ? PASSWORD_HINT : undefined, error: errors.fields.password, required: true })}
<button type="submit" class="button button-primary">Join</button>
</form>`,
  );
}

export function accountPage(options: {
  chrome: Chrome;
  member: MemberRow;
  partner: PartnerAccountRow;
  errors?: FormErrors;
  message?: string | null;
}): string {
  const errors = options.errors ?? NO_ERRORS;
  const { chrome, member, partner } = options;
  return page(
    "Account",
    html`<h1>Account</h1>
${notice(options.message)}
<section class="card" aria-labelledby="you"><h2 id="you">You</h2>
<dl class="facts"><dt>E-mail address</dt><dd>${member.email}</dd><dt>Role</dt><dd>${member.role}</dd><dt>Partner account</dt><dd>${partner.name}</dd><dt>Account id</dt><dd><code>${partner.id}</code> <span class="hint">(for <code>npm run keys -- create --partner ${partner.id}</code>)</span></dd></dl>
</section>
<section class="card" aria-labelledby="password-heading"><h2 id="password-heading">Change your password</h2>
<p>Your other signed-in browsers are signed out; this one stays signed in.</p>
${errorSummary(errors)}
<form method="post" action="/account/password" class="narrow" novalidate>
${csrfInput(chrome.csrfToken)}
<input type="text" name="username" value="${member.email}" autocomplete="username" hidden>
${input({ id: "current_password", name: "current_password", label: "Current password", type: "password", autocomplete: "current-password", error: errors.fields.current_password, required: true })}
${input({ id: "new_password", name: "new_password", label: "New password", type: "password", autocomplete: "new-password", hint: PASSWORD_HINT, error: errors.fields.new_password, required: true })}
<button type="submit" class="button button-primary">Change password</button>
</form>
</section>`,
    chrome,
  );
}
