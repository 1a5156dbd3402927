/** The Team section: the people of the partner account, their roles, and invitations. */
import type { InvitationRow, MemberRow } from "../../partners/accounts/account-store.js";
import { html } from "../../web/html.js";
import { actionButton, csrfInput, errorSummary, input, NO_ERRORS, select, type FormErrors } from "./controls.js";
import { when } from "./format.js";
import { notice, page, type Chrome } from "./layout.js";

export const ROLE_CHOICES = [
  { value: "developer", label: "Developer: keys, webhooks, logs, sandbox, embedding" },
  { value: "owner", label: "Owner: all of that, and the team" },
] as const;

export function teamPage(options: {
  chrome: Chrome;
  me: MemberRow;
  members: readonly MemberRow[];
  invitations: readonly InvitationRow[];
  /** An invitation's link, shown to the owner where no mail carries it. */
  link?: string | null;
  values?: { email: string; role: string };
  errors?: FormErrors;
  message?: string | null;
  sandbox: boolean;
}): string {
  const { chrome, me } = options;
  const owner = me.role === "owner";
  const errors = options.errors ?? NO_ERRORS;
  return page(
    "Team",
    html`<h1>Team</h1>
${notice(options.message)}
${options.link && html`<section class="card card-highlight" aria-labelledby="link-heading"><h2 id="link-heading">Invitation link</h2><p>This deployment sends no e-mail. Give this link to the person you invited; it works once, for 7 days, and only for a dashboard account this address already has (a new address needs e-mail to be proved).</p><p><code class="wrap">${options.link}</code></p></section>`}
<section aria-labelledby="members-heading"><h2 id="members-heading">Members</h2>
<div class="table-scroll" role="region" aria-labelledby="members-heading" tabindex="0"><table>
<caption class="visually-hidden">Members of this partner account</caption>
<thead><tr><th scope="col">E-mail address</th><th scope="col">Role</th><th scope="col">Joined</th>${owner && html`<th scope="col"><span class="visually-hidden">Actions</span></th>`}</tr></thead>
<tbody>${options.members.map(
      (member) =>
        html`<tr><th scope="row">${member.email}${member.id === me.id && html` <span class="hint">(you)</span>`}</th><td>${member.role}</td><td>${when(member.createdAt)}</td>${
          owner &&
          html`<td class="actions">${actionButton({
            action: `/team/members/${member.id}/role`,
            label: member.role === "owner" ? "Make developer" : "Make owner",
            csrfToken: chrome.csrfToken,
            hidden: { role: member.role === "owner" ? "developer" : "owner" },
            describe: member.email,
          })} ${actionButton({ action: `/team/members/${member.id}/remove`, label: "Remove", csrfToken: chrome.csrfToken, style: "danger", confirm: `Remove ${member.email} from the team?`, describe: member.email })}</td>`
        }</tr>`,
    )}</tbody></table></div>
</section>
${
  owner
    ? html`<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Invite someone</h2>
${errorSummary(errors)}
<form method="post" action="/team/invitations" class="row-form" novalidate>
${csrfInput(chrome.csrfToken)}
${input({ id: "invite-email", name: "email", label: "E-mail address", type: "email", value: options.values?.email, error: errors.fields.email, required: true })}
${select({ id: "invite-role", name: "role", label: "Role", choices: ROLE_CHOICES, value: options.values?.role ?? "developer" })}
<button type="submit" class="button button-primary">Send invitation</button>
</form>
${options.sandbox && html`<p class="hint">Sandbox: the invitation e-mail, link included, is written to the server's log.</p>`}
</section>
${
  options.invitations.length > 0 &&
  html`<section aria-labelledby="pending-heading"><h2 id="pending-heading">Open invitations</h2><ul class="plain">${options.invitations.map(
    (invitation) =>
      html`<li>${invitation.email} as ${invitation.role}, until ${when(invitation.expiresAt)} ${actionButton({ action: `/team/invitations/${invitation.tokenHash}/cancel`, label: "Cancel", csrfToken: chrome.csrfToken, describe: `the invitation of ${invitation.email}` })}</li>`,
  )}</ul></section>`
}`
    : html`<p>Only owners invite, remove and change the roles of members.</p>`
}`,
    chrome,
  );
}
