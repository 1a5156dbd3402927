/**
 * The files both HTML front doors serve: the base stylesheet (the design tokens as custom
 * properties, and the rules of the classes both front doors' pages use). Each front door serves it
 * under its own host, beside its own assets and with the same caching, so a page needs no other origin.
 */
import { fileURLToPath } from "node:url";
import express, { type Express } from "express";

const MOUNT = "/assets/web";
const WEB_ASSETS = fileURLToPath(new URL("./assets/", import.meta.url));

export const BASE_STYLESHEET_PATH = `${MOUNT}/base.css`;

/** Serves the shared files, then the front door's own folder at /assets; before any route that needs a session. */
export function serveAssets(app: Express, ownAssets: string): void {
  // Mounted first: the front door's /assets refuses what it does not hold (fallthrough: false).
  app.use(MOUNT, express.static(WEB_ASSETS, { index: false, fallthrough: false, cacheControl: false }));
  app.use("/assets", express.static(ownAssets, { index: false, fallthrough: false, cacheControl: false }));
}
