/** Your domains: the list, the auto-renew and WHOIS privacy switches, renewal. */
import type { Express, Request, Response } from "express";
import { updateDomainSettings } from "../../domains/domain-settings.js";
import { renewDomain } from "../../domains/renewal.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "../embed-context.js";
import { assertUnchangedSinceShown, choiceOf, formErrors, integerOf, textOf, valuesOf, type FormBody } from "../forms.js";
import { domainsPage, type DomainsView } from "../views/domains-view.js";
import { noticeFor } from "./notices.js";

async function renderDomains(context: EmbedContext, req: Request, failed?: DomainsView["failed"]): Promise<string> {
  const { store } = context.services;
  const owned = await store.domainsOfUser(context.session.partnerId, context.session.userIdentifier);
  const counts = await Promise.all(owned.map((domain) => store.countRecords(domain.id)));
  const domains = owned.map((domain, index) => ({ ...domain, recordCount: counts[index]! }));
  return domainsPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domains,
    notice: failed ? null : await noticeFor(context, req.query),
    failed,
  });
}

const BOOLEAN = ["true", "false"] as const;

/** What the user is told when the domain changed after the page was shown, so a switch was not applied. */
const CHANGED_SINCE_SHOWN =
  "The domain changed after this page was shown (perhaps in your application), so nothing was changed. The switches now show its current settings.";

/** The one setting a switch sends; a body naming neither is refused as the API refuses an unknown field. */
function settingsOf(body: FormBody) {
  if (textOf(body, "auto_renew") !== "") return { autoRenew: choiceOf(body, "auto_renew", BOOLEAN) === "true" };
  return { whoisPrivacy: choiceOf(body, "whois_privacy", BOOLEAN) === "true" };
}

export function registerDomainRoutes(app: Express): void {
  app.get("/domains", async (req: Request, res: Response) => {
    res.type("html").send(await renderDomains(embedContextOf(res), req));
  });

  app.post("/domains/:domainId/settings", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domainId = String(req.params.domainId);
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await domainOfSessionUser(tx, domainId);
        const settings = settingsOf(req.body as FormBody);
        assertUnchangedSinceShown(req.body as FormBody, domain, "domain");
        await updateDomainSettings(tx.services, domain, settings);
        return `/domains?notice=settings&domain=${domain.id}#domain-${domain.id}`;
      },
      async (error) => {
        // Changed meanwhile: the page shows the settings as they are now, the switch unpressed.
        const errors = error.code === "precondition_failed" ? { fields: {}, summary: [CHANGED_SINCE_SHOWN] } : formErrors(error);
        return { html: await renderDomains(context, req, { domainId, form: "settings", state: { values: {}, errors } }) };
      },
    );
  });

  app.post("/domains/:domainId/renew", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domainId = String(req.params.domainId);
    const body = req.body as FormBody;
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await domainOfSessionUser(tx, domainId);
        await renewDomain(tx.services, domain, integerOf(body, "years") ?? 1);
        return `/domains?notice=renewed&domain=${domain.id}#domain-${domain.id}`;
      },
      async (error) => ({
        html: await renderDomains(context, req, {
          domainId,
          form: "renew",
          state: { values: valuesOf(body, ["years"]), errors: formErrors(error) },
        }),
      }),
    );
  });
}
