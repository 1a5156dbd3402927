/**
 * What a page says after a change (Post/Redirect/Get): the redirect names a notice and the domain, and
 * the text is built here from the store, so a crafted link can only show one of these sentences.
 */
import { textProblem } from "../../plain-text.js";
import { timestamp } from "../../clock.js";
import type { EmbedContext } from "../embed-context.js";

const NOTICES = {
  purchased: (name: string) => `${name} is yours. It is registered and ready for DNS records.`,
  settings: (name: string) => `The settings of ${name} are saved.`,
  renewed: (name: string, expires: string) => `${name} is renewed until ${expires}.`,
  "record-added": (name: string) => `The record is added to ${name}.`,
  "record-saved": (name: string) => `The record of ${name} is saved.`,
  "record-deleted": (name: string) => `The record is deleted from ${name}.`,
  "template-applied": (name: string) => `The template's records are added to ${name}.`,
} satisfies Record<string, (name: string, expires: string) => string>;

export type NoticeCode = keyof typeof NOTICES;

export async function noticeFor({ services, session }: EmbedContext, query: Record<string, unknown>): Promise<string | null> {
  const code = query.notice;
  const domainId = query.domain;
  if (typeof code !== "string" || !Object.hasOwn(NOTICES, code) || typeof domainId !== "string" || textProblem(domainId)) return null;
  const domain = await services.store.findDomain(domainId);
  if (!domain || domain.partnerId !== session.partnerId || domain.userIdentifier !== session.userIdentifier) return null;
  return NOTICES[code as NoticeCode](domain.name, timestamp(domain.expiresAt).slice(0, 10));
}
