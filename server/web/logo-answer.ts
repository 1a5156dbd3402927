/** A partner's logo as both HTML front doors send it: the dashboard's preview and the embedded interface's pages. */
import type { Response } from "express";

/** For the look's files, whose addresses carry their version: a browser may keep them until the look changes. */
export const KEEP_UNTIL_CHANGED = "private, max-age=31536000, immutable";

/** Sends a logo as stored, 404 without one. */
export function sendLogo(res: Response, logo: { type: string; bytes: Buffer } | null): void {
  if (!logo) {
    res.status(404).end();
    return;
  }
  res.setHeader("Cache-Control", KEEP_UNTIL_CHANGED);
  res.type(logo.type).send(logo.bytes);
}
