/**
 * The partner's look, served by the embed host to its signed-in pages: the accent colour as a
 * stylesheet (pages take styles from files only) and the logo. Both come from the session's partner;
 * their addresses carry a version, so a browser may keep them until the look changes.
 */
import type { Request, Response } from "express";
import { accentStylesheet } from "../../partners/branding/accent-colour.js";
import { KEEP_UNTIL_CHANGED, sendLogo } from "../../web/logo-answer.js";
import { embedContextOf } from "./embed-context.js";
import type { RouteTable } from "../../web/route-table.js";

export function accentStyle(_req: Request, res: Response) {
  const { branding } = embedContextOf(res);
  res.setHeader("Cache-Control", KEEP_UNTIL_CHANGED);
  res.type("text/css").send(branding.accentColour ? accentStylesheet(branding.accentColour) : "");
}

export async function partnerLogo(_req: Request, res: Response) {
  const { services, session } = embedContextOf(res);
  sendLogo(res, await services.persistence.branding.logoOf(session.partnerId, services.deployment.environment));
}

export const BRANDING_ROUTES: RouteTable = {
  "/branding/style.css": { get: accentStyle },
  "/branding/logo": { get: partnerLogo },
};
