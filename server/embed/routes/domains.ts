/** Your domains: the list, the auto-renew and WHOIS privacy switches, renewal. */
import type { Express, Request, Response } from "express";
import { updateDomainSettings } from "../../domains/domain-settings.js";
import { renewDomain } from "../../domains/renewal.js";
import { ApiError } from "../../errors.js";
import { chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "../embed-context.js";
import { choiceOf, formErrors, integerOf, textOf, valuesOf, type FormBody } from "../forms.js";
import { domainsPage, type DomainsView } from "../views/domains-view.js";
import { noticeFor } from "./notices.js";

function renderDomains(context: EmbedContext, req: Request, failed?: DomainsView["failed"]): string {
  const { store } = context.services;
  const domains = store
    .domainsOfUser(context.session.partnerId, context.session.userIdentifier)
    .map((domain) => ({ ...domain, recordCount: store.countRecords(domain.id) }));
  return domainsPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domains,
    notice: failed ? null : noticeFor(context, req.query),
    failed,
  });
}

const BOOLEAN = ["true", "false"] as const;

/** The one setting a switch sends; a body naming neither is refused as the API refuses an unknown field. */
function settingsOf(body: FormBody) {
  if (textOf(body, "auto_renew") !== "") return { autoRenew: choiceOf(body, "auto_renew", BOOLEAN) === "true" };
  return { whoisPrivacy: choiceOf(body, "whois_privacy", BOOLEAN) === "true" };
}

export function registerDomainRoutes(app: Express): void {
  app.get("/domains", (req: Request, res: Response) => {
    res.type("html").send(renderDomains(embedContextOf(res), req));
  });

  app.post("/domains/:domainId/settings", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    try {
      updateDomainSettings(context.services, domain, settingsOf(req.body as FormBody));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      res
        .status(error.status)
        .type("html")
        .send(renderDomains(context, req, { domainId: domain.id, form: "settings", state: { values: {}, errors: formErrors(error) } }));
      return;
    }
    res.redirect(303, `/domains?notice=settings&domain=${domain.id}#domain-${domain.id}`);
  });

  app.post("/domains/:domainId/renew", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const body = req.body as FormBody;
    try {
      renewDomain(context.services, domain, integerOf(body, "years") ?? 1);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      res
        .status(error.status)
        .type("html")
        .send(
          renderDomains(context, req, {
            domainId: domain.id,
            form: "renew",
            state: { values: valuesOf(body, ["years"]), errors: formErrors(error) },
          }),
        );
      return;
    }
    res.redirect(303, `/domains?notice=renewed&domain=${domain.id}#domain-${domain.id}`);
  });
}
