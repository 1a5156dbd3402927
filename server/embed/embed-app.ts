/**
 * The embed host that login_url opens: a session's token signs the user in for 24 hours without a
 * key. Pages are server-rendered HTML; every value from the store is escaped.
 */
import express, { type Express } from "express";
import type { Services } from "../context.js";
import { openSession } from "./sessions.js";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

export function createEmbedApp(services: Services): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use((_req, res, next) => {
    // The page holds a signed-in session: never cached, never sniffed.
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    next();
  });
  app.get("/session/:token", (req, res) => {
    const lookup = openSession(services, req.params.token);
    if (lookup.state === "unknown") {
      res.status(404).type("html").send(page("Link not valid", "<h1>This link is not valid</h1><p>Open the domains page again from the application.</p>"));
      return;
    }
    if (lookup.state === "expired") {
      res.status(410).type("html").send(page("Link expired", "<h1>This link has expired</h1><p>Links are valid for 24 hours. Open the domains page again from the application.</p>"));
      return;
    }
    const { session } = lookup;
    const domains = services.store.domainsOfUser(session.partnerId, session.userIdentifier);
    const rows = domains.map((domain) => `<li>${escapeHtml(domain.name)} <span>${escapeHtml(domain.status)}</span></li>`).join("");
    res
      .status(200)
      .type("html")
      .send(page("Your domains", `<h1>Your domains</h1><p>Signed in as ${escapeHtml(session.userIdentifier)}</p>${rows ? `<ul>${rows}</ul>` : "<p>No domains yet.</p>"}`));
  });
  app.use((_req, res) => {
    res.status(404).type("html").send(page("Not found", "<h1>Not found</h1>"));
  });
  return app;
}
