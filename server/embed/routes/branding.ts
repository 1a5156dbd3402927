/**
 * The partner's look, served by the embed host to its signed-in pages: the accent colour as a
 * stylesheet (pages take styles from files only) and the logo. Both come from the session's partner;
 * their addresses carry a version, so a browser may keep them until the look changes.
 */
import type { Express, Request, Response } from "express";
import { accentStylesheet } from "../../branding/accent-colour.js";
import { embedContextOf } from "../embed-context.js";

const KEEP = "private, max-age=31536000, immutable";

export function registerBrandingRoutes(app: Express): void {
  app.get("/branding/style.css", (_req: Request, res: Response) => {
    const { branding } = embedContextOf(res);
    res.setHeader("Cache-Control", KEEP);
    res.type("text/css").send(branding.accentColour ? accentStylesheet(branding.accentColour) : "");
  });

  app.get("/branding/logo", async (_req: Request, res: Response) => {
    const { services, session } = embedContextOf(res);
    const logo = await services.persistence.branding.logoOf(session.partnerId, services.deployment.environment);
    if (!logo) {
      res.status(404).end();
      return;
    }
    res.setHeader("Cache-Control", KEEP);
    res.type(logo.type).send(logo.bytes);
  });
}
