/** The team: members and their roles, invitations; only owners change it, and never to no owner. */
import type { Request, Response } from "express";
import { AccountProblem } from "../../partners/accounts/accounts.js";
import type { MemberRole } from "../../partners/accounts/account-store.js";
import { apiErrors } from "../../platform/errors.js";
import { choiceOf, textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "./dashboard-context.js";
import { formErrors } from "../views/controls.js";
import { forbiddenPage } from "../views/layout.js";
import { teamPage } from "../views/team-view.js";
import type { RouteTable } from "../../web/route-table.js";

const ROLES: readonly MemberRole[] = ["owner", "developer"];

const MESSAGES: Record<string, string> = {
  invited: "Invitation sent.",
  role: "The role is changed.",
  removed: "The member is removed and signed out.",
  cancelled: "The invitation is cancelled.",
  last_owner: "An account keeps at least one owner: make someone else an owner first.",
};

async function showTeam(res: Response, request: MemberRequest, extra: Partial<Parameters<typeof teamPage>[0]> = {}, status = 200) {
  const { accounts } = request.dashboard.services.persistence;
  const now = request.dashboard.services.clock.now();
  const [members, invitations] = await Promise.all([accounts.membersOf(request.partner.id), accounts.invitationsOf(request.partner.id)]);
  res
    .status(status)
    .type("html")
    .send(
      teamPage({
        chrome: request.chrome("team"),
        me: request.member,
        members,
        invitations: invitations.filter((invitation) => invitation.expiresAt > now),
        sandbox: request.dashboard.services.deployment.environment === "sandbox",
        ...extra,
      }),
    );
}

/** Owners only: a developer's form is refused with a page that says why. */
function ownerOnly(res: Response): MemberRequest | null {
  const request = memberOf(res);
  if (request.member.role === "owner") return request;
  res
    .status(403)
    .type("html")
    .send(forbiddenPage(request.chrome("team")));
  return null;
}

export async function showTeamPage(req: Request, res: Response) {
  const done = typeof req.query.done === "string" ? (MESSAGES[req.query.done] ?? null) : null;
  await showTeam(res, memberOf(res), { message: done });
}

export async function inviteMember(req: Request, res: Response) {
  const request = ownerOnly(res);
  if (!request) return;
  const body = req.body as FormBody;
  const values = { email: textOf(body, "email"), role: choiceOf(body, "role", ROLES) };
  try {
    const { link } = await request.dashboard.accounts.invite(request.member, values.email, values.role);
    if (request.dashboard.signUpOpen) res.redirect(303, "/team?done=invited");
    else await showTeam(res, request, { link, message: "Invitation made." }, 201);
  } catch (error) {
    if (!(error instanceof AccountProblem)) throw error;
    await showTeam(res, request, { values, errors: formErrors(error.fields) }, 422);
  }
}

export async function cancelInvitation(req: Request, res: Response) {
  const request = ownerOnly(res);
  if (!request) return;
  const { accounts } = request.dashboard.services.persistence;
  const invitation = await accounts.findInvitation(String(req.params.tokenHash));
  if (!invitation || invitation.partnerId !== request.partner.id) throw apiErrors.notFound("Invitation", "");
  await accounts.deleteInvitation(invitation.tokenHash);
  res.redirect(303, "/team?done=cancelled");
}

export async function changeMemberRole(req: Request, res: Response) {
  const request = ownerOnly(res);
  if (!request) return;
  const role = choiceOf(req.body as FormBody, "role", ROLES);
  const outcome = await request.dashboard.services.persistence.accounts.setRole(request.partner.id, String(req.params.memberId), role);
  if (outcome === "not_found") throw apiErrors.notFound("Member", "");
  res.redirect(303, `/team?done=${outcome === "done" ? "role" : "last_owner"}`);
}

export async function removeTeamMember(req: Request, res: Response) {
  const request = ownerOnly(res);
  if (!request) return;
  const outcome = await request.dashboard.services.persistence.accounts.removeMember(request.partner.id, String(req.params.memberId));
  if (outcome === "not_found") throw apiErrors.notFound("Member", "");
  // Removing oneself ends one's own session too: the next page asks to sign in.
  res.redirect(303, `/team?done=${outcome === "done" ? "removed" : "last_owner"}`);
}

export const TEAM_ROUTES: RouteTable = {
  "/team": { get: showTeamPage },
  "/team/invitations": { post: inviteMember },
  "/team/invitations/:tokenHash/cancel": { post: cancelInvitation },
  "/team/members/:memberId/role": { post: changeMemberRole },
  "/team/members/:memberId/remove": { post: removeTeamMember },
};
