/** What every page of a signed-in browser receives: the partner's services, the session and its user. */
import type { Response } from "express";
import type { Services } from "../context.js";
import { domainOfPartner } from "../domains/domain-access.js";
import { apiErrors } from "../errors.js";
import type { DomainRow, EmbedSessionRow, UserRow } from "../store/types.js";
import type { Chrome } from "./views/layout.js";

export interface EmbedContext {
  /** The services as the session's partner sees them (its sandbox clock, events stamped with it). */
  services: Services;
  session: EmbedSessionRow;
  user: UserRow;
}

export function embedContextOf(res: Response): EmbedContext {
  const context = res.locals.embed as EmbedContext | undefined;
  if (!context) throw new Error("an embed page was reached without a session");
  return context;
}

export const chromeOf = ({ services, user }: EmbedContext, current: Chrome["current"]): Chrome => ({
  userIdentifier: user.userIdentifier,
  environment: services.deployment.environment,
  current,
});

/** One of the session user's domains; another user's is "not found", as an unknown one. */
export function domainOfSessionUser({ services, session }: EmbedContext, domainId: string): DomainRow {
  const domain = domainOfPartner(services.store, session.partnerId, domainId);
  if (domain.userIdentifier !== session.userIdentifier) throw apiErrors.notFound("Domain", domainId);
  return domain;
}
