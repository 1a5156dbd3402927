/** What every page of a signed-in browser receives: the partner's services, the session, its user, language and look. */
import type { Response } from "express";
import type { Branding } from "../../partners/branding/branding-store.js";
import type { Services } from "../../application/context.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { ApiError, apiErrors } from "../../platform/errors.js";
import { inTransaction, type UnitOfWork } from "../../application/transactions.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import type { EmbedSessionRow } from "../../domain/sessions/session-store.js";
import type { UserRow } from "../../domain/users/user-store.js";
import type { Localizer } from "../i18n/localizer.js";
import type { Chrome } from "../views/layout.js";

export interface EmbedContext {
  /** The services as the session's partner sees them (its sandbox clock, events stamped with it). */
  services: Services;
  session: EmbedSessionRow;
  user: UserRow;
  /** The language the partner chose for the session, else the browser's (server/platform/locale.ts). */
  l: Localizer;
  partnerName: string;
  branding: Branding;
}

export function embedContextOf(res: Response): EmbedContext {
  const context = res.locals.embed as EmbedContext | undefined;
  if (!context) throw new Error("an embed page was reached without a session");
  return context;
}

export const chromeOf = ({ services, user, l, partnerName, branding }: EmbedContext, current: Chrome["current"]): Chrome => ({
  l,
  userIdentifier: user.userIdentifier,
  environment: services.deployment.environment,
  current,
  branding: {
    partnerName,
    styleVersion: branding.accentColour?.slice(1) ?? null,
    logoVersion: branding.logo?.version ?? null,
  },
});

/** One of the session user's domains; another user's is "not found", as an unknown one. */
export async function domainOfSessionUser({ services, session }: EmbedContext, domainId: string): Promise<DomainRow> {
  const domain = await domainOfPartner(services.store, session.partnerId, domainId);
  if (domain.userIdentifier !== session.userIdentifier) throw apiErrors.notFound("Domain", domainId);
  return domain;
}

/**
 * A form's change, as one transaction (server/application/transactions.ts): `act` reads what it changes inside
 * it and answers where to redirect (Post/Redirect/Get). An ApiError a form can show is answered
 * with the page `refused` renders; a missing or foreign domain or record (404, 403) goes on to the
 * not-found page.
 */
export async function answerChange(
  res: Response,
  context: EmbedContext,
  act: (context: EmbedContext) => Promise<string>,
  refused: (error: ApiError) => Promise<{ status?: number; html: string }>,
  kind: UnitOfWork = "serializable",
): Promise<void> {
  let redirectTo: string;
  try {
    redirectTo = await inTransaction(context.services, (services) => act({ ...context, services }), kind);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status === 403) throw error;
    const answer = await refused(error);
    res
      .status(answer.status ?? error.status)
      .type("html")
      .send(answer.html);
    return;
  }
  res.redirect(303, redirectTo);
}
